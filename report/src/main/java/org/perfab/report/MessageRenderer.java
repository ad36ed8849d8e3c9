package org.perfab.report;

/**
 * Renders a script's {@link Message}: one line of plain text for the log, one paragraph of inert
 * Markdown for the job summary, one workflow command for GitHub. Each is one line whatever the text
 * holds (its line breaks read as {@code ?}), so a value it quotes never starts a line of its own.
 */
final class MessageRenderer {
    private MessageRenderer() {}

    /** Returns the text as one line of plain text. */
    static String text(Message m) {
        return Untrusted.plain(m.text(), Untrusted.MAX_PROSE) + "\n";
    }

    /** Returns the text as a paragraph of Markdown that marks up, mentions and links nothing. */
    static String markdown(Message m) {
        return Untrusted.markdown(m.text(), Untrusted.MAX_PROSE) + "\n\n";
    }

    /** Returns one annotation: {@code ::error title=TITLE::TEXT}. */
    static String github(Message m) {
        return Workflow.command(
                m.level().id(),
                Untrusted.plain(m.title(), Untrusted.MAX_LENGTH),
                Untrusted.plain(m.text(), Untrusted.MAX_PROSE));
    }
}
