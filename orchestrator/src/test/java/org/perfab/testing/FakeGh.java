package org.perfab.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A fake {@code gh} for the scripts of perfab's GitHub workflows. It keeps a pull request's
 * comments in {@code $FAKE_STATE/comments.json}, logs every call to {@code $FAKE_STATE/calls}, and
 * runs the scripts' {@code --jq} filters through the real jq. {@code pr list} prints
 * {@code $FAKE_PR}; {@code run download --name NAME} copies {@code $FAKE_STATE/artifacts/NAME/}, else
 * (for a name not of a shard) {@code $FAKE_STATE/artifact/}, when it exists and fails otherwise,
 * {@code run download --pattern} each folder of {@code $FAKE_STATE/artifacts/} it matches into a
 * folder of that name, as gh does; {@code api .../artifacts?name=NAME} counts the folder
 * {@code artifacts/NAME}; the artifacts of a run are {@code perfab-out}, id 77. Like GitHub, it refuses a
 * body of more than 65,536 characters.
 */
public final class FakeGh {
    private FakeGh() {}

    /** Writes the fake as {@code bin/gh}, and returns {@code bin}. */
    public static Path install(Path bin) throws IOException {
        Files.createDirectories(bin);
        Files.writeString(bin.resolve("gh"), SCRIPT);
        bin.resolve("gh").toFile().setExecutable(true);
        return bin;
    }

    private static final String SCRIPT = """
            #!/usr/bin/env python3
            import json, os, subprocess, sys
            state = os.path.join(os.environ["FAKE_STATE"], "comments.json")
            args = sys.argv[1:]
            with open(os.path.join(os.environ["FAKE_STATE"], "calls"), "a") as log:
                log.write(" ".join(args) + "\\n")
            def opt(name):
                return args[args.index(name) + 1] if name in args else None
            if args[:2] == ["pr", "list"]:
                print(os.environ.get("FAKE_PR", ""))
                sys.exit(0)
            if args[:2] == ["run", "download"]:
                import fnmatch, shutil
                if opt("--pattern"):
                    arts = os.path.join(os.environ["FAKE_STATE"], "artifacts")
                    found = sorted(n for n in (os.listdir(arts) if os.path.isdir(arts) else [])
                                   if fnmatch.fnmatch(n, opt("--pattern")))
                    if not found:
                        sys.exit("no artifact matches any of the names or patterns provided")
                    for n in found:
                        shutil.copytree(os.path.join(arts, n), os.path.join(opt("--dir"), n), dirs_exist_ok=True)
                    sys.exit(0)
                source = os.path.join(os.environ["FAKE_STATE"], "artifacts", opt("--name") or "")
                if not opt("--name") or not os.path.isdir(source):
                    source = os.path.join(os.environ["FAKE_STATE"], "artifact")
                if "-shard-" in (opt("--name") or "") and not source.endswith(opt("--name")) or not os.path.isdir(source):
                    sys.exit("no valid artifacts found to download")
                shutil.copytree(source, opt("--dir"), dirs_exist_ok=True)
                sys.exit(0)
            if args[0] == "api" and "/artifacts?name=" in args[1]:
                arts = os.path.join(os.environ["FAKE_STATE"], "artifacts", args[1].split("?name=")[1])
                doc = {"total_count": 1 if os.path.isdir(arts) else 0}
                out = subprocess.run(["jq", "-r", opt("--jq")], input=json.dumps(doc), capture_output=True, text=True)
                sys.stdout.write(out.stdout)
                sys.exit(out.returncode)
            if args[0] == "api" and args[1].endswith("/artifacts"):
                doc = {"artifacts": [{"id": 77, "name": "perfab-out"}]}
                out = subprocess.run(["jq", "-r", opt("--jq")], input=json.dumps(doc), capture_output=True, text=True)
                sys.stdout.write(out.stdout)
                sys.exit(out.returncode)
            comments = json.load(open(state))
            path = [a for a in args[1:] if a.startswith("repos/")][0]
            method = opt("-X") or "GET"
            if method == "GET":
                doc = comments if path.endswith("/comments") else [c for c in comments if path.endswith("/" + str(c["id"]))][0]
                out = subprocess.run(["jq", "-r", opt("--jq")], input=json.dumps(doc), capture_output=True, text=True,
                                     env=os.environ)
                sys.stdout.write(out.stdout)
                sys.exit(out.returncode)
            body = open(opt("-F")[len("body=@"):]).read()
            if len(body) > 65536:
                sys.exit("gh: Validation Failed: body is too long (maximum is 65536 characters) (HTTP 422)")
            if method == "PATCH":
                target = [c for c in comments if path.endswith("/" + str(c["id"]))][0]
                if target["user"]["login"] != os.environ.get("FAKE_LOGIN", "github-actions[bot]"):
                    sys.exit("gh: Must have admin rights to Repository. (HTTP 403)")
                target["body"] = body
            else:
                comments.append({"id": max([c["id"] for c in comments] + [100]) + 1,
                                 "user": {"login": os.environ.get("FAKE_LOGIN", "github-actions[bot]")}, "body": body})
            json.dump(comments, open(state, "w"))
            """;
}
