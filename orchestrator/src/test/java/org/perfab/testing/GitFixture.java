package org.perfab.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real git repository in a temporary folder, driven by the real {@code git} program, for
 * end-to-end tests. It reads no user or system git configuration.
 */
public final class GitFixture {
    private final Path dir;
    private int tick;

    private GitFixture(Path dir) {
        this.dir = dir;
    }

    /** Creates an empty repository in {@code dir} whose first branch is {@code main}. */
    public static GitFixture init(Path dir) throws IOException {
        Files.createDirectories(dir);
        GitFixture g = new GitFixture(dir);
        g.git("init", "-q", "-b", "main");
        return g;
    }

    public Path dir() {
        return dir;
    }

    /** Writes {@code path} (relative) with {@code content}. */
    public GitFixture write(String path, String content) throws IOException {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return this;
    }

    /** Writes an executable script. */
    public GitFixture script(String path, String content) throws IOException {
        write(path, content);
        Files.setPosixFilePermissions(dir.resolve(path), PosixFilePermissions.fromString("rwxr-xr-x"));
        return this;
    }

    /** Stages everything and commits; returns the new commit id. */
    public String commit(String message) throws IOException {
        git("add", "-A");
        git("commit", "-q", "-m", message);
        return git("rev-parse", "HEAD").trim();
    }

    /** Runs git with {@code args} in the repository and returns its standard output. */
    public String git(String... args) throws IOException {
        return run(dir, args);
    }

    /** Runs git with {@code args} in {@code cwd}, isolated from the user's configuration. */
    public String run(Path cwd, String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of("git", "-c", "commit.gpgsign=false", "-c",
                "protocol.file.allow=always", "-c", "init.defaultBranch=main"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.put("HOME", dir.toString());
        String when = "2026-01-01T00:00:" + String.format("%02d", Math.min(59, tick++)) + "Z";
        env.put("GIT_AUTHOR_NAME", "perfab test");
        env.put("GIT_AUTHOR_EMAIL", "test@perfab.invalid");
        env.put("GIT_COMMITTER_NAME", "perfab test");
        env.put("GIT_COMMITTER_EMAIL", "test@perfab.invalid");
        env.put("GIT_AUTHOR_DATE", when);
        env.put("GIT_COMMITTER_DATE", when);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("git " + String.join(" ", args) + " failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return out;
    }
}
