package org.perfab.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code perfab completion bash|zsh}: a script that completes perfab's commands and options. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a script that completes perfab's commands, options and their values in bash or zsh."},
        footer = {"", "bash: source <(perfab completion bash)     (or save it in /etc/bash_completion.d/perfab)",
            "zsh:  source <(perfab completion zsh)      (in ~/.zshrc)"})
final class CompletionCommand implements Callable<Integer> {
    /** The shells a script is made for. */
    enum Shell {
        bash, zsh
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh.")
    Shell shell;

    @Override
    public Integer call() {
        CommandLine root = spec.root().commandLine();
        String script = AutoComplete.bash("perfab", root);
        if (shell == Shell.zsh) {
            // zsh runs bash completion scripts through its bashcompinit.
            script = "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" + script;
        }
        spec.commandLine().getOut().print(script);
        spec.commandLine().getOut().flush();
        return ExitCode.OK;
    }
}
