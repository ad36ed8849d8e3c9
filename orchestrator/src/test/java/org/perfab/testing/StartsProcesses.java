package org.perfab.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a unit test that starts real processes because they are its subject: what real git leaves
 * (a clone's {@code origin/HEAD}, a submodule git added), how {@code sh} hands a script its
 * arguments, a FIFO only {@code mkfifo} makes, a shipped script, the watchdog, cgroups. The build
 * runs these in a JVM of their own, and every other unit test in a JVM that cannot start a process
 * (see the surefire executions in the root pom), so a test that starts one unmarked
 * fails there, naming itself.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(StartsProcesses.TAG)
public @interface StartsProcesses {
    /** The JUnit tag of the tests marked so. */
    String TAG = "starts-processes";
}
