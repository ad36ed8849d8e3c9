package org.perfab.ab;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.perfab.model.Side;

/**
 * The folders of one build of one side, under the run's work folder:
 * {@code work/SIDE-BUILD/tree} (the checkout), {@code .../out} (the private build-output folder)
 * and {@code .../tmp} (its temporary files).
 *
 * @param side the side
 * @param build which build of it, from 0
 * @param root the folder holding the three
 */
record SideDir(Side side, int build, Path root) {

    static SideDir of(Path work, Side side, int build) {
        return new SideDir(side, build, work.resolve(side.id() + "-" + build));
    }

    Path tree() {
        return root.resolve("tree");
    }

    Path out() {
        return root.resolve("out");
    }

    Path tmp() {
        return root.resolve("tmp");
    }

    /** The record of a finished build: present only once the build has succeeded. */
    Path buildRecord() {
        return root.resolve("build.json");
    }

    String label() {
        return side.id() + (build == 0 ? "" : " build " + build);
    }

    /**
     * Returns the variables that point a side's builds and trials at its own folders: perfab's
     * own, and the output locations of common tools, so that a candidate can never pick up the
     * baseline's build outputs from a shared folder.
     */
    Map<String, String> isolation() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PERFAB_SIDE", side.id());
        env.put("PERFAB_SIDE_DIR", tree().toString());
        env.put("PERFAB_BUILD_DIR", out().toString());
        env.put("PERFAB_BUILD", Integer.toString(build));
        // Cargo keys a path dependency by name and version, not by checkout: a shared target
        // folder would let the head link the base's build.
        env.put("CARGO_TARGET_DIR", out().resolve("cargo-target").toString());
        env.put("PYTHONPYCACHEPREFIX", out().resolve("pycache").toString());
        env.put("TMPDIR", tmp().toString());
        return env;
    }
}
