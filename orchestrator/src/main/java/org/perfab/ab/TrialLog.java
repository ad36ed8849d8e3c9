package org.perfab.ab;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.perfab.failure.BadInputException;
import org.perfab.model.RunResults;
import org.perfab.model.TrialJson;

/**
 * {@code trials.jsonl}: one line per trial, appended and forced to disk the moment the trial ends,
 * so that a run killed at any point keeps every trial it finished.
 */
final class TrialLog implements AutoCloseable {
    private final FileChannel channel;

    private TrialLog(FileChannel channel) {
        this.channel = channel;
    }

    /** Opens {@code file} for appending, creating it when missing. */
    static TrialLog open(Path file) throws IOException {
        return new TrialLog(
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
    }

    /** Appends {@code trial} as one line and forces it to disk. */
    synchronized void append(RunResults.TrialRecord trial) throws IOException {
        ByteBuffer line = ByteBuffer.wrap((TrialJson.line(trial) + "\n").getBytes(StandardCharsets.UTF_8));
        while (line.hasRemaining()) {
            channel.write(line);
        }
        channel.force(false);
    }

    /**
     * Returns the trials in {@code file}, and cuts off a last line that a kill left half written.
     * A damaged line before the last is an error: the file is not perfab's, or was edited.
     */
    static List<RunResults.TrialRecord> recover(Path file) throws IOException {
        List<RunResults.TrialRecord> trials = new ArrayList<>();
        if (!Files.exists(file)) {
            return trials;
        }
        byte[] bytes = Files.readAllBytes(file);
        int start = 0;
        int lineNo = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            lineNo++;
            String line = new String(bytes, start, end - start, StandardCharsets.UTF_8);
            boolean complete = end < bytes.length;
            String shown = file + ":" + lineNo;
            try {
                trials.add(TrialJson.read(line, shown));
                if (!complete) {
                    Files.write(file, new byte[] {'\n'}, StandardOpenOption.APPEND);
                }
            } catch (BadInputException | IllegalArgumentException e) {
                if (complete) {
                    throw new BadInputException(
                            shown + ": a damaged trial record ("
                                    + e.getMessage().replace(shown + ": ", "")
                                    + "); only a last line cut short by a kill can"
                                    + " be mended. Remove the line to resume without that trial, or start a new run",
                            e);
                }
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(start);
                }
                break;
            }
            start = end + 1;
        }
        return trials;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
