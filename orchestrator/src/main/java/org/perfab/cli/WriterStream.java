package org.perfab.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** An output stream onto picocli's writer, for the core code that prints to a stream. */
final class WriterStream extends OutputStream {
    private final PrintWriter writer;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    WriterStream(PrintWriter writer) {
        this.writer = writer;
    }

    @Override
    public synchronized void write(int b) {
        pending.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        pending.write(b, off, len);
    }

    @Override
    public synchronized void flush() {
        writer.write(pending.toString(StandardCharsets.UTF_8));
        pending.reset();
        writer.flush();
    }
}
