import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.ToolProvider;

/**
 * Compiles src/ (the side's own code) and bench/ (the head's harness and cells) into
 * $PERFAB_BUILD_DIR/classes. Run as: java tools/Build.java
 */
public class Build {
    public static void main(String[] args) throws IOException {
        Path out = Path.of(System.getenv("PERFAB_BUILD_DIR"), "classes");
        Files.createDirectories(out);
        List<String> javac = new ArrayList<>(List.of("-d", out.toString(), "--release", "17"));
        try (Stream<Path> sources = Stream.concat(Files.walk(Path.of("src")), Files.walk(Path.of("bench")))) {
            sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> javac.add(p.toString()));
        }
        int code = ToolProvider.getSystemJavaCompiler().run(null, System.out, System.err,
                javac.toArray(new String[0]));
        System.out.println("compiled into " + out + ": exit " + code);
        System.exit(code);
    }
}
