package org.perfab.cli;

import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The footer of a command's help: a line of prose is wrapped to the help's width, and an indented
 * line (an example, a row of a table) comes out as written, however long, so that an example copied
 * from the help runs. A terminal narrower than the line folds it for the eye only.
 */
final class Footer implements IHelpSectionRenderer {
    @Override
    public String render(Help help) {
        UsageMessageSpec usage = help.commandSpec().usageMessage();
        StringBuilder text = new StringBuilder();
        for (String line : usage.footer()) {
            // picocli wraps a line at its column's width, even inside a path (arm/results.|json): an
            // indented line gets a column wider than itself.
            int width = line.startsWith(" ") ? Math.max(usage.width(), line.length() + 1) : usage.width();
            Help.join(
                    help.colorScheme().ansi(),
                    width,
                    usage.adjustLineBreaksForWideCJKCharacters(),
                    new String[] {line},
                    text);
        }
        return text.toString();
    }
}
