package org.perfab.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code perfab completion bash|zsh|fish}: a script that completes perfab's commands and options. */
@Command(
        name = "completion",
        mixinStandardHelpOptions = true,
        description = {"Print a script that completes perfab's commands, options and their values in bash, zsh or fish."
        },
        footer = {
            "",
            "Example:",
            "  source <(perfab completion bash)    # in ~/.bashrc, or save it as /etc/bash_completion.d/perfab",
            "  source <(perfab completion zsh)     # in ~/.zshrc",
            "  perfab completion fish > ~/.config/fish/completions/perfab.fish"
        })
final class CompletionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", description = "${COMPLETION-CANDIDATES}.")
    Completion.Shell shell;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(Completion.script(shell, spec.root().commandLine()));
        spec.commandLine().getOut().flush();
        return ExitCode.OK;
    }
}
