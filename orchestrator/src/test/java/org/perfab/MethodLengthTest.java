package org.perfab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No method or constructor in any module's main code is longer than {@value #LIMIT} lines, counted
 * from the line of its opening brace to the line of its closing one, unless its Javadoc or a comment
 * before it says why with the words {@value #REASON} (as in "Long because it is one table of cases").
 * The sources are read as text, with the braces of strings, text blocks, characters and comments
 * set aside; a method of a nested or anonymous class is measured on its own, a lambda or a local
 * class as part of the method that holds it.
 */
class MethodLengthTest {
    /** The longest a method may be, in lines, without a reason. */
    static final int LIMIT = 80;

    /** The words that give a long method's reason, in its Javadoc or a comment before it, in any case. */
    static final String REASON = "long because";

    /** Every module's main sources, relative to this module. */
    private static final List<Path> SOURCES = List.of(
            Path.of("../stats/src/main"),
            Path.of("../model/src/main"),
            Path.of("../report/src/main"),
            Path.of("src/main"),
            Path.of("../workloads/src/main"));

    private static final Pattern TYPE = Pattern.compile("\\b(class|interface|enum|record)\\b");
    private static final Pattern NEW = Pattern.compile("\\bnew\\b");
    private static final Pattern THROWS = Pattern.compile("\\bthrows\\b[^()]*$");
    private static final Pattern LAST_NAME = Pattern.compile("([A-Za-z_$][A-Za-z_$0-9]*)\\s*$");

    /** One method too long: where it is, its name and its length in lines. */
    record TooLong(String file, int line, String name, int lines) {
        @Override
        public String toString() {
            return file + ":" + line + " " + name + " is " + lines + " lines (over " + LIMIT
                    + "): shorten it, or say why in its comment with \"" + REASON + "\"";
        }
    }

    @Test
    void noMethodInMainCodeIsOverTheLimitWithoutAReason() throws IOException {
        List<TooLong> found = new ArrayList<>();
        int files = 0;
        for (Path root : SOURCES) {
            assertTrue(Files.isDirectory(root), root.toAbsolutePath() + " is not a folder of sources");
            List<Path> sources;
            try (Stream<Path> walk = Files.walk(root)) {
                sources = walk.filter(p -> p.toString().endsWith(".java"))
                        .sorted()
                        .toList();
            }
            for (Path source : sources) {
                files++;
                found.addAll(tooLong(source.toString(), Files.readString(source)));
            }
        }
        assertTrue(files > 250, "read only " + files + " files");
        assertEquals(List.of(), found.stream().map(TooLong::toString).toList());
    }

    @Test
    void countsFromBraceToBraceAndTakesAReasonFromTheComment() {
        assertEquals(
                List.of(new TooLong("A.java", 4, "run", 82)), tooLong("A.java", type(method("void run()", 80, ""))));
        assertEquals(List.of(), tooLong("A.java", type(method("void run()", 78, ""))));
        assertEquals(
                List.of(),
                tooLong(
                        "A.java",
                        type("/** Runs. TooLong because it is one table of cases. */\n"
                                + method("void run()", 80, ""))));
        assertEquals(
                List.of(),
                tooLong(
                        "A.java",
                        type("// LONG BECAUSE each case is one line.\n@Override\n" + method("void run()", 80, ""))));
        assertEquals(
                List.of(new TooLong("A.java", 6, "B", 82)),
                tooLong(
                        "A.java",
                        type("// TooLong because of this field.\nint x;\n"
                                + method("B(int x) throws IOException", 80, ""))));
    }

    @Test
    void setsAsideTheBracesOfStringsTextBlocksCharactersAndComments() {
        String noise =
                "String s = \"}}\\\"{\"; char c = '}'; char q = '\\''; String t = \"\"\"\n  }\"\n  \\\"\"\" }\n  \"\"\";"
                        + " // }\n/* } */ Runnable r = () -> { };";
        assertEquals(
                List.of(new TooLong("A.java", 4, "run", 82 + 5)),
                tooLong("A.java", type(method("void run()", 80, noise))));
        assertEquals(
                List.of(new TooLong("A.java", 5, "run", 82)),
                tooLong("A.java", type("int[] a = {1, 2}; String s = \"{\";\n" + method("void run()", 80, ""))));
    }

    @Test
    void measuresMethodsOfNestedAnonymousAndEnumClassesOnTheirOwn() {
        String inner = "record R(int a) {\n" + method("R", 80, "") + "}\n";
        assertEquals(List.of(new TooLong("A.java", 5, "R", 82)), tooLong("A.java", type(inner)));
        String anonymous = "Runnable r = new Runnable() {\n" + method("public void run()", 80, "") + "};\n";
        assertEquals(List.of(new TooLong("A.java", 5, "run", 82)), tooLong("A.java", type(anonymous)));
        String constants =
                "enum E { A(1) {\n" + method("int f()", 80, "") + "}, B(2);\n E(int x) { }\n int f() { return 0; } }\n";
        assertEquals(List.of(new TooLong("A.java", 5, "f", 82)), tooLong("A.java", type(constants)));
        String local = method("void outer()", 40, "class L {\n" + method("void inner()", 40, "") + "}");
        assertEquals(List.of(new TooLong("A.java", 4, "outer", 2 + 40 + 1 + 42 + 1)), tooLong("A.java", type(local)));
    }

    /** Returns a class {@code A} in a file of its own holding {@code body}. */
    private static String type(String body) {
        return "package a;\n\nclass A {\n" + body + "\n}\n";
    }

    /** Returns a method with {@code header}, {@code first} as its first line and {@code lines} more. */
    private static String method(String header, int lines, String first) {
        StringBuilder s = new StringBuilder(header).append(" {\n");
        if (!first.isEmpty()) {
            s.append(first).append('\n');
        }
        s.append("x();\n".repeat(lines));
        return s.append("}\n").toString();
    }

    /**
     * Returns each method of {@code source} (of a file named {@code file}) over {@link #LIMIT} lines whose
     * comment does not say why.
     */
    static List<TooLong> tooLong(String file, String source) {
        String code = code(source);
        List<TooLong> found = new ArrayList<>();
        Deque<Block> blocks = new ArrayDeque<>();
        int start = 0;
        int parens = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') {
                parens++;
            } else if (c == ')') {
                parens--;
            } else if (c == ';' && parens == 0) {
                if (!blocks.isEmpty() && blocks.peek().kind == Kind.ENUM) {
                    blocks.peek().kind = Kind.TYPE;
                }
                start = i + 1;
            } else if (c == '{') {
                Block outer = blocks.peek();
                Block block = new Block(i, outer == null ? Kind.TYPE : kind(outer, parens, code.substring(start, i)));
                if (block.kind == Kind.METHOD) {
                    block.name = name(code.substring(start, i));
                    block.reason =
                            source.substring(start, i).toLowerCase(Locale.ROOT).contains(REASON);
                } else if (block.kind == Kind.TYPE
                        && TYPE.matcher(code.substring(start, i)).find()) {
                    block.kind = isEnum(code.substring(start, i)) ? Kind.ENUM : Kind.TYPE;
                }
                blocks.push(block);
                start = i + 1;
            } else if (c == '}') {
                Block block = blocks.pop();
                int lines = line(code, i) - line(code, block.open) + 1;
                if (block.kind == Kind.METHOD && lines > LIMIT && !block.reason) {
                    found.add(new TooLong(file, line(code, block.open), block.name, lines));
                }
                start = i + 1;
            }
        }
        return found;
    }

    /** What a block is: a body of a type (before an enum's first {@code ;}: its constants), a method's, or another. */
    private enum Kind {
        TYPE,
        ENUM,
        METHOD,
        OTHER
    }

    private static final class Block {
        final int open;
        Kind kind;
        String name = "";
        boolean reason;

        Block(int open, Kind kind) {
            this.open = open;
            this.kind = kind;
        }
    }

    /** Returns what a block opened with {@code header} (since the last {@code ;} or brace) in {@code outer} is. */
    private static Kind kind(Block outer, int parens, String header) {
        if (outer.kind == Kind.METHOD || outer.kind == Kind.OTHER) {
            return Kind.OTHER;
        }
        String head = header.strip();
        if (TYPE.matcher(head).find() || NEW.matcher(head).find() || outer.kind == Kind.ENUM) {
            return Kind.TYPE;
        }
        if (parens > 0
                || head.isEmpty()
                || head.equals("static")
                || outside(head).contains("=")) {
            return Kind.OTHER;
        }
        return Kind.METHOD;
    }

    private static boolean isEnum(String header) {
        Matcher m = TYPE.matcher(header);
        String last = "";
        while (m.find()) {
            last = m.group(1);
        }
        return last.equals("enum");
    }

    /** Returns {@code header} without what its parentheses hold. */
    private static String outside(String header) {
        StringBuilder s = new StringBuilder();
        int depth = 0;
        for (char c : header.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0) {
                s.append(c);
            }
        }
        return s.toString();
    }

    /** Returns the name a method or constructor is declared with in {@code header}. */
    private static String name(String header) {
        String head = THROWS.matcher(header.strip()).replaceFirst("").strip();
        if (head.endsWith(")")) {
            int depth = 0;
            for (int i = head.length() - 1; i >= 0; i--) {
                char c = head.charAt(i);
                depth += c == ')' ? 1 : c == '(' ? -1 : 0;
                if (depth == 0) {
                    head = head.substring(0, i);
                    break;
                }
            }
        }
        Matcher m = LAST_NAME.matcher(head);
        return m.find() ? m.group(1) : head;
    }

    private static int line(String code, int at) {
        int line = 1;
        for (int i = 0; i < at; i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /**
     * Returns {@code source} with the insides of its comments, strings, text blocks and character
     * literals blanked, each character but a line break made a space, so that offsets and lines stay.
     */
    static String code(String source) {
        StringBuilder s = new StringBuilder(source);
        int i = 0;
        while (i < s.length()) {
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? s.length() : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = closing(source, i + 3, "\"\"\"");
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                end = closing(source, i + 1, String.valueOf(source.charAt(i)));
            } else {
                i++;
                continue;
            }
            for (int j = i; j < end; j++) {
                if (s.charAt(j) != '\n') {
                    s.setCharAt(j, ' ');
                }
            }
            i = end;
        }
        return s.toString();
    }

    /** Returns the offset just past the first unescaped {@code quote} from {@code from} in {@code source}. */
    private static int closing(String source, int from, String quote) {
        int i = from;
        while (i < source.length()) {
            if (source.charAt(i) == '\\') {
                i += 2;
            } else if (source.startsWith(quote, i)) {
                return i + quote.length();
            } else {
                i++;
            }
        }
        return source.length();
    }
}
