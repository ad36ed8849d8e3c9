package org.perfab.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Small projects for end-to-end tests of {@code perfab ab}. Their harnesses do not time anything:
 * each trial reports a value read from the side under test, with a fixed spread by trial number,
 * so the verdicts are known in advance and no test depends on the machine's speed.
 */
public final class Subjects {
    private Subjects() {}

    /**
     * The harness: reads {@code level} (written by the build into {@code $PERFAB_BUILD_DIR}) and
     * reports {@code speed/run} as {@code level * (1 + (trial mod 3 - 1) / 100)}.
     */
    public static final String HARNESS = """
            #!/bin/sh
            set -e
            level=$(cat "$PERFAB_BUILD_DIR/level")
            jitter=$(( PERFAB_TRIAL % 3 - 1 ))
            value=$(( level * (100 + jitter) ))
            printf '{"schema": "perfab/measurements/v1", "measurements": [\\n' > "$PERFAB_RESULT"
            printf ' {"cell": "speed/run", "metric": "time", "unit": "us", "value": %s}' "$value" >> "$PERFAB_RESULT"
            printf ',\\n {"cell": "steady/run", "metric": "time", "unit": "us", "value": %s}' $(( 1000 + jitter )) >> "$PERFAB_RESULT"
            printf '\\n]}\\n' >> "$PERFAB_RESULT"
            """;

    /**
     * Returns {@link #fake()}'s programs, signalling the runs as SIGINT would when the head's counted
     * trial {@code trial} (from 0) starts.
     */
    public static FakeEngine signallingAt(int trial) {
        FakeEngine plain = fake();
        FakeEngine signalling = fake();
        signalling.program("bench.sh", c -> {
            if (c.env().get("PERFAB_SIDE").equals("head")
                    && c.env().get("PERFAB_WARMUP").equals("0")
                    && c.env().get("PERFAB_TRIAL").equals(Integer.toString(trial))) {
                signalling.signal();
            }
            return plain.run(c);
        });
        return signalling;
    }

    /**
     * The build and the harness above as a fake engine's programs, in process: {@code build.sh}
     * copies the side's own {@code level.txt} into its build folder, {@code bench.sh} reports from
     * it what the script reports. Each reads its own side's files, as the scripts do.
     */
    public static FakeEngine fake() {
        return new FakeEngine()
                .program("build.sh", c -> {
                    Files.copy(
                            c.dir().resolve("level.txt"),
                            Path.of(c.env().get("PERFAB_BUILD_DIR")).resolve("level"),
                            StandardCopyOption.REPLACE_EXISTING);
                    return FakeEngine.ok(0.01);
                })
                .program("bench.sh", c -> {
                    long level = Long.parseLong(Files.readString(
                                    Path.of(c.env().get("PERFAB_BUILD_DIR")).resolve("level"))
                            .strip());
                    long jitter = Long.parseLong(c.env().get("PERFAB_TRIAL")) % 3 - 1;
                    Files.writeString(
                            Path.of(c.env().get("PERFAB_RESULT")),
                            "{\"schema\": \"perfab/measurements/v1\","
                                    + " \"measurements\": [\n {\"cell\": \"speed/run\", \"metric\": \"time\", \"unit\": \"us\","
                                    + " \"value\": " + level * (100 + jitter)
                                    + "},\n {\"cell\": \"steady/run\", \"metric\": \"time\","
                                    + " \"unit\": \"us\", \"value\": " + (1000 + jitter) + "}\n]}\n");
                    return FakeEngine.ok(0.02);
                });
    }

    /*
     * A subject whose speed depends on its layout only, as in a binary linked with fat LTO: the
     * build's output size picks an offset of -4% to +5% (build.perturb pads the source), and the
     * harness reports loop as 10000 ns moved by 100 ns a point of offset, with a jitter by trial.
     */
    /** The build of a subject whose speed is its layout's: its output size picks an offset. */
    public static final String LAYOUT_BUILD = """
            #!/bin/sh
            set -e
            cp src.txt "$PERFAB_BUILD_DIR/prog"
            size=$(wc -c < src.txt)
            set -- -4 -1 2 4 2 5 0 0 0
            shift $(( size % 9 ))
            echo "$1" > "$PERFAB_BUILD_DIR/offset"
            """;
    /** Its perturbation: the build's number of spaces at the end of the source. */
    public static final String PAD_SOURCE = "#!/bin/sh\nprintf '%*s' \"$PERFAB_BUILD\" '' >> src.txt\n";
    /** Its harness: 10000 ns moved by the offset, with a jitter by trial. */
    public static final String LAYOUT_HARNESS = """
            #!/bin/sh
            offset=$(cat "$PERFAB_BUILD_DIR/offset")
            jitter=$(( PERFAB_TRIAL % 3 - 1 ))
            value=$(( 10000 + offset * 100 + jitter ))
            printf '{"schema": "perfab/measurements/v1", "measurements": [{"cell": "loop", "metric": "time",'\
            ' "unit": "ns", "value": %s}]}' "$value" > "$PERFAB_RESULT"
            """;
    /** Writes the layout-only subject's scripts and a source of 900 bytes (0 mod 9) into {@code g}. */
    public static void layoutOnly(GitFixture g) throws IOException {
        g.write("src.txt", "x".repeat(900));
        g.script("build.sh", LAYOUT_BUILD).script("perturb.sh", PAD_SOURCE).script("bench.sh", LAYOUT_HARNESS);
    }

    /** Returns {@code fake} with the layout-only subject's scripts as programs, each found by its text. */
    public static FakeEngine layoutOnly(FakeEngine fake) {
        long[] offsets = {-4, -1, 2, 4, 2, 5, 0, 0, 0};
        return fake.script(LAYOUT_BUILD, c -> {
                    Path out = Path.of(c.env().get("PERFAB_BUILD_DIR"));
                    Files.copy(c.dir().resolve("src.txt"), out.resolve("prog"), StandardCopyOption.REPLACE_EXISTING);
                    long size = Files.size(c.dir().resolve("src.txt"));
                    Files.writeString(out.resolve("offset"), offsets[(int) (size % 9)] + "\n");
                    return FakeEngine.ok(0.01);
                })
                .script(PAD_SOURCE, c -> {
                    Files.writeString(
                            c.dir().resolve("src.txt"),
                            " ".repeat(Integer.parseInt(c.env().get("PERFAB_BUILD"))),
                            StandardOpenOption.APPEND);
                    return FakeEngine.ok(0.01);
                })
                .script(LAYOUT_HARNESS, c -> {
                    Path built = Path.of(c.env().get("PERFAB_BUILD_DIR"));
                    long offset = Long.parseLong(
                            Files.readString(built.resolve("offset")).strip());
                    long value = 10000 + offset * 100 + Long.parseLong(c.env().get("PERFAB_TRIAL")) % 3 - 1;
                    Files.writeString(
                            Path.of(c.env().get("PERFAB_RESULT")),
                            "{\"schema\": \"perfab/measurements/v1\","
                                    + " \"measurements\": [{\"cell\": \"loop\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": "
                                    + value + "}]}");
                    return FakeEngine.ok(0.02);
                });
    }

    /** The build: copies {@code level.txt} into the side's private build folder. */
    public static final String BUILD = """
            #!/bin/sh
            set -e
            cp level.txt "$PERFAB_BUILD_DIR/level"
            """;

    /**
     * A workload with the harness and build above, of a fixed size ({@code adaptive: off}: the
     * tests count its trials); {@code extra} lines are appended.
     */
    public static String workload(int trials, String extra) {
        return "name: subject\n"
                + "trials: " + trials + "\n"
                + "warmup: 1\n"
                + "adaptive: off\n"
                + "build:\n  run: [sh, build.sh]\n  timeout: 30s\n"
                + "harness:\n  run: [sh, bench.sh]\n  timeout: 20s\n"
                + extra;
    }

    /**
     * Writes the project into {@code g} at {@code level}: the build, the harness, the workload and
     * {@code level.txt}.
     */
    public static void write(GitFixture g, int level, int trials, String extraWorkload) throws IOException {
        g.script("build.sh", BUILD)
                .script("bench.sh", HARNESS)
                .write("perfab.yaml", workload(trials, extraWorkload))
                .write("level.txt", level + "\n");
    }

    /**
     * A repository whose {@code main} moved on after {@code feature} left it: the merge-base has
     * level 100, main's tip 500, and feature {@code featureLevel}.
     */
    public static GitFixture pullRequest(Path dir, int featureLevel, int trials, String extra) throws IOException {
        GitFixture g = GitFixture.init(dir);
        write(g, 100, trials, extra);
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", featureLevel + "\n").write("CHANGES", "the feature\n");
        g.commit("the change");
        g.git("checkout", "-q", "main");
        g.write("level.txt", "500\n").write("NEWS", "main moved on\n");
        g.commit("main moves on");
        return g;
    }
}
