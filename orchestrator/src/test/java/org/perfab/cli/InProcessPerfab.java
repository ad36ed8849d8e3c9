package org.perfab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perfab.ab.Engine;

/**
 * perfab as a program a script under test runs, without starting a JVM for every call: the
 * program is a small Python client that hands its arguments to this server, in the test's JVM,
 * over a Unix socket, with its environment, and prints what perfab printed and exits with its code.
 * For scripts whose calls involve no signal (a signal to the client would not reach perfab). An
 * argument that names a file or folder that exists where
 * the script runs, and the value of {@code -o}/{@code --out}, are made absolute, since perfab runs
 * in the test's folder.
 */
final class InProcessPerfab implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String CLIENT = """
            #!/usr/bin/env python3
            import json, os, socket, sys
            args, absolute = [], False
            for a in sys.argv[1:]:
                if absolute or (not a.startswith("-") and os.path.exists(a)):
                    a = os.path.abspath(a)
                absolute = a in ("-o", "--out")
                args.append(a)
            s = socket.socket(socket.AF_UNIX)
            s.connect(SOCKET)
            s.sendall(json.dumps({"args": args, "env": dict(os.environ)}).encode() + b"\\n")
            s.shutdown(socket.SHUT_WR)
            reply = json.loads(b"".join(iter(lambda: s.recv(65536), b"")).decode())
            sys.stdout.write(reply["out"])
            sys.stderr.write(reply["err"])
            sys.exit(reply["code"])
            """;

    private final ServerSocketChannel server;
    private final Path program;
    private final Thread thread;

    private InProcessPerfab(ServerSocketChannel server, Path program, Engine engine) {
        this.server = server;
        this.program = program;
        this.thread = new Thread(() -> serve(engine), "in-process-perfab");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts the server and writes its program as {@code program}, its socket beside it. */
    static InProcessPerfab start(Path program, Engine engine) throws IOException {
        Path socket = program.resolveSibling(program.getFileName() + ".sock");
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.writeString(program, CLIENT.replace("SOCKET", JSON.writeValueAsString(socket.toString())));
        program.toFile().setExecutable(true);
        return new InProcessPerfab(server, program, engine);
    }

    /** Returns the program a script runs as perfab. */
    Path program() {
        return program;
    }

    private void serve(Engine engine) {
        while (server.isOpen()) {
            try (SocketChannel client = server.accept();
                    InputStream in = Channels.newInputStream(client);
                    OutputStream reply = Channels.newOutputStream(client)) {
                JsonNode request = JSON.readTree(in.readAllBytes());
                List<String> args = new ArrayList<>();
                request.get("args").forEach(a -> args.add(a.asText()));
                Map<String, String> env = new HashMap<>();
                request.get("env")
                        .fields()
                        .forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int code;
                try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                    code = Main.run(engine, env, o, e, args.toArray(String[]::new));
                }
                ObjectNode answer = JSON.createObjectNode()
                        .put("code", code)
                        .put("out", out.toString(StandardCharsets.UTF_8))
                        .put("err", err.toString(StandardCharsets.UTF_8));
                reply.write(JSON.writeValueAsBytes(answer));
            } catch (IOException e) {
                if (server.isOpen()) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
