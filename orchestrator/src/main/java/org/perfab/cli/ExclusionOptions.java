package org.perfab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.perfab.failure.BadInputException;
import org.perfab.model.Exclusions;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --exclude} and {@code --exclusions}: the benchmarks every baseline command that reads them leaves out. */
final class ExclusionOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
            names = "--exclude",
            paramLabel = "PREFIX",
            description = "Leave out benchmarks whose names start with PREFIX. Repeatable.")
    List<String> prefixes = new ArrayList<>();

    @Option(
            names = "--exclusions",
            paramLabel = "FILE",
            description = "A file of prefixes to leave out, one a line (# starts a comment).")
    Path file;

    /**
     * Returns the prefixes to leave out, those of the file with those given.
     *
     * @throws ParameterException naming {@code --exclude} when a prefix is not one
     */
    Exclusions exclusions() {
        Exclusions e;
        try {
            e = new Exclusions(prefixes);
        } catch (IllegalArgumentException ex) {
            throw new ParameterException(spec.commandLine(), "--exclude: " + ex.getMessage());
        }
        return file == null ? e : e.and(Exclusions.parse(BadInputException.read(file)));
    }
}
