package org.perfab.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.StreamSupport;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The completion scripts of perfab's command line, each made from one model of it as users type
 * it: its commands, their options with descriptions, and the values an option takes, an enum's in
 * lower case.
 */
final class Completion {
    /** The shells a script is made for. */
    enum Shell {
        bash,
        zsh,
        fish
    }

    private Completion() {}

    /** Returns the script that completes {@code root}'s commands in {@code shell}. */
    static String script(Shell shell, CommandLine root) {
        CommandLine typed = typed(root);
        return switch (shell) {
            case bash -> AutoComplete.bash(name(typed), typed);
            // zsh runs bash completion scripts through its bashcompinit.
            case zsh ->
                "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n"
                        + AutoComplete.bash(name(typed), typed);
            case fish -> fish(typed);
        };
    }

    /**
     * Returns a copy of {@code original}'s commands and options in which an enum's values are
     * offered as users type them, in lower case (perfab reads enum values in any case); other
     * values as the option gives them.
     */
    static CommandLine typed(CommandLine original) {
        CommandSpec from = original.getCommandSpec();
        CommandSpec to = CommandSpec.create().name(from.name()); // a former name (alias) runs, not offered
        to.usageMessage().description(from.usageMessage().description());
        for (OptionSpec o : from.options()) {
            Iterable<String> values = lowerCase(o);
            // The bash script names an option's list of values by its label: an option that has one
            // is labelled by its name, so that --format and --format-in (both FORMAT) keep theirs.
            String label = values(values).isEmpty()
                    ? o.paramLabel()
                    : o.longestName().replaceFirst("^-+", "").toUpperCase(Locale.ROOT);
            to.addOption(
                    o.toBuilder().completionCandidates(values).paramLabel(label).build());
        }
        for (PositionalParamSpec p : from.positionalParameters()) {
            to.addPositional(p.toBuilder().completionCandidates(lowerCase(p)).build());
        }
        CommandLine copy = new CommandLine(to);
        original.getSubcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName())) {
                copy.addSubcommand(name, typed(sub));
            }
        });
        return copy;
    }

    private static Iterable<String> lowerCase(ArgSpec arg) {
        Iterable<String> given = arg.completionCandidates();
        boolean isEnum =
                arg.type().isEnum() || Arrays.stream(arg.auxiliaryTypes()).anyMatch(Class::isEnum);
        return given == null || !isEnum
                ? given
                : values(given).stream().map(v -> v.toLowerCase(Locale.ROOT)).toList();
    }

    private static List<String> values(Iterable<String> candidates) {
        return candidates == null
                ? List.of()
                : StreamSupport.stream(candidates.spliterator(), false).toList();
    }

    private static String name(CommandLine root) {
        return root.getCommandSpec().name();
    }

    /** Returns {@code root} and every command below it, each before its subcommands. */
    static List<CommandLine> commands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>(List.of(root));
        for (int i = 0; i < all.size(); i++) {
            all.addAll(all.get(i).getSubcommands().values());
        }
        return all;
    }

    /**
     * The fish script: a function that finds the command typed so far (perfab, perfab baseline,
     * perfab baseline check, ...), and per command a {@code complete} line for each subcommand and
     * option, conditioned on it. Files are offered only where an option or parameter takes one.
     */
    private static String fish(CommandLine root) {
        String perfab = name(root);
        List<CommandLine> all = commands(root);
        StringBuilder s = new StringBuilder();
        s.append("# fish completion for ")
                .append(perfab)
                .append(": '")
                .append(perfab)
                .append(" completion fish | source', or save it as ~/.config/fish/completions/")
                .append(perfab)
                .append(".fish\n\n");
        s.append("function __")
                .append(perfab)
                .append("_command --description 'The ")
                .append(perfab)
                .append(" command typed so far, as \"")
                .append(perfab)
                .append(" baseline check\"'\n");
        s.append("    set -l words (commandline -opc)\n");
        s.append("    set -e words[1]\n");
        s.append("    set -l command ").append(perfab).append('\n');
        s.append("    for word in $words\n");
        s.append("        if contains -- \"$command $word\"");
        for (CommandLine c : all.subList(1, all.size())) {
            s.append(' ').append(fishQuoted(c.getCommandSpec().qualifiedName()));
        }
        s.append("\n            set command \"$command $word\"\n");
        s.append("        end\n");
        s.append("    end\n");
        s.append("    echo $command\n");
        s.append("end\n\n");
        s.append("function __")
                .append(perfab)
                .append("_is --description 'Whether the ")
                .append(perfab)
                .append(" command typed so far is $argv[1]'\n");
        s.append("    test (__").append(perfab).append("_command) = \"$argv[1]\"\n");
        s.append("end\n\n");
        s.append("complete -c ").append(perfab).append(" -f\n");
        for (CommandLine c : all) {
            CommandSpec spec = c.getCommandSpec();
            String head = "complete -c " + perfab + " -n "
                    + fishQuoted("__" + perfab + "_is \"" + spec.qualifiedName() + "\"");
            s.append("\n# ").append(spec.qualifiedName()).append('\n');
            c.getSubcommands()
                    .forEach((name, sub) -> s.append(head)
                            .append(" -a ")
                            .append(fishQuoted(name))
                            .append(" -d ")
                            .append(fishQuoted(firstSentence(
                                    sub.getCommandSpec().usageMessage().description())))
                            .append('\n'));
            for (OptionSpec o : spec.options()) {
                if (o.hidden()) {
                    continue;
                }
                s.append(head);
                for (String n : o.names()) {
                    s.append(fishName(n));
                    if (o.negatable()) {
                        s.append(fishName(spec.negatableOptionTransformer().makeNegative(n, spec)));
                    }
                }
                s.append(fishValues(o, o.arity().max() == 0 || isBoolean(o)));
                s.append(" -d ")
                        .append(fishQuoted(firstSentence(o.description())))
                        .append('\n');
            }
            for (PositionalParamSpec p : spec.positionalParameters()) {
                if (!p.hidden()) {
                    s.append(head).append(fishValues(p, false)).append('\n');
                }
            }
        }
        return s.toString();
    }

    private static boolean isBoolean(ArgSpec arg) {
        return arg.type() == boolean.class || arg.type() == Boolean.class;
    }

    /** The name of an option as fish's complete takes it: -s x, -l name, or -o name for -name. */
    private static String fishName(String name) {
        if (name.startsWith("--")) {
            return " -l " + fishQuoted(name.substring(2));
        }
        return (name.length() == 2 ? " -s " : " -o ") + fishQuoted(name.substring(1));
    }

    /**
     * What fish offers for an argument: nothing for a flag; its values when it lists them; files,
     * or folders for a DIR, when it takes a path; else a value of the user's own.
     */
    private static String fishValues(ArgSpec arg, boolean flag) {
        if (flag) {
            return "";
        }
        String option = arg.isOption() ? " -x" : "";
        List<String> values = values(arg.completionCandidates());
        if (!values.isEmpty()) {
            return option + " -a " + fishQuoted(String.join(" ", values));
        }
        Class<?> type = arg.auxiliaryTypes().length > 0 ? arg.auxiliaryTypes()[0] : arg.type();
        if (type == Path.class || type == File.class) {
            if (arg.paramLabel().contains("DIR")) {
                return option + " -a " + fishQuoted("(__fish_complete_directories)");
            }
            return arg.isOption() ? " -r -F" : " -F";
        }
        return option;
    }

    /** The first sentence of a description as help prints it (%% a percent sign), without its full stop. */
    static String firstSentence(String[] description) {
        String text = String.join(" ", description)
                .replace("%n", " ")
                .replace("%%", "%")
                .replaceAll("\\s+", " ")
                .strip();
        String first = text.split("\\.\\s+(?=[A-Z])", 2)[0]; // not at "e.g. cell=..."
        return first.endsWith(".") ? first.substring(0, first.length() - 1) : first;
    }

    /** {@code text} as one fish word in single quotes. */
    static String fishQuoted(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
