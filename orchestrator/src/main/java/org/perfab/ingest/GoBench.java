package org.perfab.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.model.Units;
import org.perfab.stats.Direction;

/**
 * The text of {@code go test -bench}: every {@code BenchmarkName-N  iterations  value unit ...}
 * line is one reading of each of its metrics, so {@code -count 10} gives ten. The {@code Benchmark}
 * prefix and the {@code -N} GOMAXPROCS suffix are dropped from the cell name. {@code ns/op} is
 * metric {@code time}, {@code B/op} {@code alloc-bytes}, {@code allocs/op} {@code allocs},
 * {@code MB/s} {@code throughput}; a custom metric ({@code b.ReportMetric}) keeps its unit as its
 * name; one whose unit is not a known one but ends in {@code /op} is a cost (lower is better), as
 * Go and benchstat take it. A line that gives one unit twice is an error naming the line.
 *
 * <p>The file is read as bytes, a buffer at a time, once: whether every name shares its {@code -N}
 * suffix is known only at the end, so the values are kept as numbers (each with its name and unit)
 * until then, and each name becomes a cell once. A run of 10,000 benchmarks has hundreds of
 * thousands of lines, so no line, field or name becomes a string unless it is new: a name is found
 * by its bytes.
 */
final class GoBench extends ToolFormat {
    private static final Pattern HEADER = Pattern.compile("^(goos|goarch|cpu|pkg):\\s*(.*)$");
    private static final byte[] PREFIX = "Benchmark".getBytes(StandardCharsets.US_ASCII);
    /** Powers of ten a double holds exactly: a decimal of at most 15 digits is one division from its value. */
    private static final double[] POWERS = new double[23];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    @Override
    public String id() {
        return "go";
    }

    @Override
    public boolean recognises(String head) {
        return Pattern.compile("(?m)^Benchmark\\S+\\s+\\d+\\s+[0-9.]+ \\S+")
                .matcher(head)
                .find();
    }

    /**
     * Returns the context of a run's text: its header ({@code goos}, {@code goarch}, {@code cpu},
     * {@code pkg}; the first of each), each benchmark's iteration counts ({@code b.N}) and its
     * time (the counts times {@code ns/op}, over its lines), by the cell name {@link #read} gives it.
     */
    @Override
    public RunContext context(Path file) {
        Map<String, String> header = new LinkedHashMap<>();
        Map<String, List<Long>> iterations = new LinkedHashMap<>();
        Map<String, Double> seconds = new LinkedHashMap<>();
        int procs = procs(file);
        Line line = new Line();
        lines(file, (number, buf, start, end) -> {
            line.set(buf, start, end);
            if (line.isResult()) {
                try {
                    long n = Long.parseLong(line.field(1));
                    iterations
                            .computeIfAbsent(line.name(procs), k -> new ArrayList<>())
                            .add(n);
                    for (int k = 2; k + 1 < line.fields; k += 2) {
                        String unit = line.field(k + 1);
                        double perOp = unit.equals("ns/op") ? 1e-9 : unit.equals("sec/op") ? 1 : 0;
                        double t = perOp * line.number(k) * n;
                        if (perOp > 0 && Double.isFinite(t) && t >= 0) {
                            seconds.merge(line.name(procs), t, Double::sum);
                            break;
                        }
                    }
                } catch (NumberFormatException e) {
                    // A count past a long is no count: the benchmark just has none.
                }
            } else {
                Matcher h = HEADER.matcher(line.text());
                if (h.matches()) {
                    header.putIfAbsent(h.group(1), h.group(2).strip());
                }
            }
        });
        return new RunContext(header, iterations, seconds);
    }

    @Override
    public Map<String, Double> seconds(Path file) {
        return context(file).seconds();
    }

    /** Returns true: perfab builds go test's benchmarks and counts each on its own. */
    @Override
    public boolean countsEachBenchmark() {
        return true;
    }

    /**
     * Returns that {@code run} must be go test itself ({@code [go, test, -bench, ., ...]}) when it is
     * another command (a script that runs go test, say): perfab builds the test binaries and runs them
     * a benchmark at a time. Empty when it is go test.
     */
    @Override
    public Optional<String> countingNeeds(List<String> run) {
        if (run.size() >= 2
                && Path.of(run.get(0)).getFileName().toString().equals("go")
                && run.get(1).equals("test")) {
            return Optional.empty();
        }
        return Optional.of("'run' to be go test itself ([go, test, -bench, ., ...]), which perfab builds and runs a"
                + " benchmark at a time");
    }

    @Override
    public List<Reading> readings(Path file) {
        List<Reading> readings = new ArrayList<>();
        readings(file, readings::add);
        return readings;
    }

    /**
     * Hands every value to {@code each} in the order read. The file is read once: a value that would
     * fail by its cell (a unit that tells no direction, a negative cost, a name that may be blank)
     * needs the cell's name, so then the file is read again once its suffix is known, to fail where
     * reading it with that suffix fails.
     */
    @Override
    public void readings(Path file, Consumer<Reading> each) {
        Line line = new Line();
        Names names = new Names();
        Suffix suffix = new Suffix();
        List<Slot> slots = new ArrayList<>();
        Values values = new Values();
        boolean[] again = {false};
        lines(file, (number, buf, start, end) -> {
            if (!startsWith(buf, start, end, PREFIX)) {
                return;
            }
            line.set(buf, start, end);
            if (!line.isResult()) {
                if (!again[0]) {
                    notAResult(file, number, line);
                }
                return;
            }
            if (!again[0]) {
                oneValuePerUnit(file, number, line);
            }
            Name name = names.of(line, suffix);
            again[0] |= name.blank;
            for (int k = 2; !again[0] && k + 1 < line.fields; k += 2) {
                double value = value(file, number, line, k);
                Slot slot = name.slot(line, k + 1, slots, number);
                again[0] = slot.direction == null || (value < 0 && slot.direction == Direction.LOWER_IS_BETTER);
                values.add(slot.index, value, number);
            }
        });
        int procs = suffix.length();
        if (again[0]) {
            read(file, procs, each);
            return;
        }
        Cell[] cells = new Cell[slots.size()];
        for (Slot slot : slots) {
            cells[slot.index] = cell(file, slot.line, slot.name.name(procs), slot.unit);
        }
        values.forEach((slot, value, number) -> each.accept(new Reading(cells[slot], value, file, number, 1)));
        if (values.size == 0) {
            throw bad(file, "", "no benchmark result lines (go test -bench prints lines starting with Benchmark)");
        }
    }

    /** Hands every value to {@code each}, the names' {@code -N} suffix, {@code procs} bytes long, dropped. */
    private static void read(Path file, int procs, Consumer<Reading> each) {
        Line line = new Line();
        Names names = new Names();
        int[] count = {0};
        lines(file, (number, buf, start, end) -> {
            if (!startsWith(buf, start, end, PREFIX)) {
                return;
            }
            line.set(buf, start, end);
            if (!line.isResult()) {
                notAResult(file, number, line);
                return;
            }
            oneValuePerUnit(file, number, line);
            Name name = names.of(line, null);
            for (int k = 2; k + 1 < line.fields; k += 2) {
                double value = value(file, number, line, k);
                each.accept(new Reading(name.cell(file, number, line, k + 1, procs), value, file, number, 1));
                count[0]++;
            }
        });
        if (count[0] == 0) {
            throw bad(file, "", "no benchmark result lines (go test -bench prints lines starting with Benchmark)");
        }
    }

    /**
     * Passes over a line that starts like a result but is none: a name on its own line (its result
     * follows after logs), or a failed or skipped benchmark.
     *
     * @throws BadInputException for any other such line
     */
    private static void notAResult(Path file, int number, Line line) {
        String text = line.text();
        if (!text.matches("^Benchmark\\S+\\s*$") && !text.contains("--- FAIL") && !text.contains("--- SKIP")) {
            throw bad(file, Integer.toString(number), "not a benchmark result line: " + text);
        }
    }

    /**
     * Refuses a result line that gives one unit twice ({@code 5 ns/op 6 ns/op}): go test prints each
     * metric once, and two values of one cell on one line are neither one reading nor two.
     *
     * @throws BadInputException naming the line and the unit
     */
    private static void oneValuePerUnit(Path file, int number, Line line) {
        for (int k = 5; k < line.fields; k += 2) {
            for (int j = 3; j < k; j += 2) {
                if (Arrays.equals(line.buf, line.start[j], line.end[j], line.buf, line.start[k], line.end[k])) {
                    throw bad(
                            file,
                            Integer.toString(number),
                            "'" + line.field(k) + "' twice in: " + line.text()
                                    + " (a result line has one value per unit)");
                }
            }
        }
    }

    /**
     * Returns the value in field {@code k} of result line {@code number}.
     *
     * @throws BadInputException when it is not a number, or not a finite one
     */
    private static double value(Path file, int number, Line line, int k) {
        double value;
        try {
            value = line.number(k);
        } catch (NumberFormatException e) {
            throw bad(file, Integer.toString(number), "'" + line.field(k) + "' is not a number in: " + line.text());
        }
        if (!Double.isFinite(value)) {
            throw bad(
                    file,
                    Integer.toString(number),
                    "'" + line.field(k) + "' is not a finite number in: " + line.text());
        }
        return value;
    }

    /** Returns the cell of a value in {@code unit}: its metric from the unit, its direction from Go's conventions. */
    private static Cell cell(Path file, int line, String name, String unit) {
        String metric = switch (unit) {
            case "ns/op" -> "time";
            case "B/op" -> "alloc-bytes";
            case "allocs/op" -> "allocs";
            case "MB/s" -> "throughput";
            default -> unit.toLowerCase(Locale.ROOT);
        };
        // Go's convention, which benchstat follows: a custom metric per operation is a cost.
        return Units.direction(unit).isEmpty() && unit.endsWith("/op")
                ? new Cell(name, metric, unit, Direction.LOWER_IS_BETTER)
                : cell(file, Integer.toString(line), name, metric, unit);
    }

    /** Returns the length of the {@code -N} suffix every result line's name ends with (see {@link Suffix}), or 0. */
    private static int procs(Path file) {
        Suffix suffix = new Suffix();
        Line line = new Line();
        lines(file, (number, buf, start, end) -> {
            if (startsWith(buf, start, end, PREFIX)) {
                line.set(buf, start, end);
                if (line.isResult()) {
                    suffix.see(line.buf, line.start[0], line.end[0]);
                }
            }
        });
        return suffix.length();
    }

    /**
     * The {@code -N} suffix of the names seen so far, while they all have the same one: Go appends
     * -GOMAXPROCS to every name, except when it is 1, and a sub-benchmark's own name may end in -1024,
     * so a suffix is dropped only when every result line has the same one. Every line of a name has
     * the name's suffix, so a reader that knows its names need see each only once.
     */
    private static final class Suffix {
        private byte[] common;
        private boolean same = true;

        /** Sees a name: the bytes from {@code from} to {@code to}, {@code Benchmark} included. */
        void see(byte[] b, int from, int to) {
            if (!same) {
                return;
            }
            int dash = dash(b, from, to);
            if (dash < 0 || (common != null && !Arrays.equals(common, 0, common.length, b, dash, to))) {
                same = false;
            } else if (common == null) {
                common = Arrays.copyOfRange(b, dash, to);
            }
        }

        /** Returns the length of the suffix every name seen has, or 0 when one has none or they differ. */
        int length() {
            return same && common != null ? common.length : 0;
        }

        /** Returns where the name's own {@code -N} suffix starts, or -1 when it has none. */
        static int dash(byte[] b, int from, int to) {
            int dash = to - 1;
            while (dash >= from && b[dash] != '-') {
                dash--;
            }
            boolean digits = dash >= from + PREFIX.length && dash < to - 1;
            for (int j = dash + 1; digits && j < to; j++) {
                digits = b[j] >= '0' && b[j] <= '9';
            }
            return digits ? dash : -1;
        }
    }

    /**
     * The values of a file in the order read, as numbers: each with the index of its slot and its
     * line, in 12 bytes. A value's line is most often that of the value before it or the next one,
     * so two bits of the slot's int say which, and only another line is kept as a number. They are
     * kept in blocks of a fixed size, so that none is copied as they grow: an array too large for
     * the young generation is made in the old one, where a copy would stay till the end.
     */
    private static final class Values {
        private static final int BLOCK = 1 << 13;
        private static final int SAME = 0;
        private static final int NEXT = 1;
        private static final int OTHER = 2;
        int size;
        private int last;
        private final List<int[]> codes = new ArrayList<>();
        private final List<double[]> values = new ArrayList<>();
        private final Ints others = new Ints();

        void add(int slot, double value, int line) {
            int i = size++ & (BLOCK - 1);
            if (i == 0) {
                codes.add(new int[BLOCK]);
                values.add(new double[BLOCK]);
            }
            int how = size > 1 && line == last ? SAME : size > 1 && line == last + 1 ? NEXT : OTHER;
            if (how == OTHER) {
                others.add(line);
            }
            last = line;
            codes.get(codes.size() - 1)[i] = slot << 2 | how;
            values.get(values.size() - 1)[i] = value;
        }

        /** Hands each value, in the order added, to {@code each}. */
        void forEach(Value each) {
            int line = 0;
            int other = 0;
            for (int b = 0; b < codes.size(); b++) {
                int[] c = codes.get(b);
                double[] v = values.get(b);
                for (int i = 0, n = Math.min(BLOCK, size - b * BLOCK); i < n; i++) {
                    int how = c[i] & 3;
                    line = how == SAME ? line : how == NEXT ? line + 1 : others.get(other++);
                    each.value(c[i] >>> 2, v[i], line);
                }
            }
        }

        /** What is done with each value. */
        interface Value {
            void value(int slot, double value, int line);
        }

        /** A list of ints in blocks. */
        private static final class Ints {
            private final List<int[]> blocks = new ArrayList<>();
            private int size;

            void add(int n) {
                int i = size++ & (BLOCK - 1);
                if (i == 0) {
                    blocks.add(new int[BLOCK]);
                }
                blocks.get(blocks.size() - 1)[i] = n;
            }

            int get(int k) {
                return blocks.get(k / BLOCK)[k & (BLOCK - 1)];
            }
        }
    }

    /**
     * A name and unit as read, before the name's suffix is known: a cell to be.
     *
     * @param direction the way the unit says is better, null when it does not say
     * @param line the line it was first read on
     */
    private record Slot(int index, Name name, String unit, Direction direction, int line) {}

    /** Returns whether the bytes from {@code start} to {@code end} begin with {@code prefix}. */
    private static boolean startsWith(byte[] buf, int start, int end, byte[] prefix) {
        return end - start >= prefix.length
                && Arrays.equals(buf, start, start + prefix.length, prefix, 0, prefix.length);
    }

    /** What is done with each line of a file: its bytes, without the line feed, and its number from 1. */
    private interface LineVisitor {
        void line(int number, byte[] buf, int start, int end);
    }

    /**
     * Hands each line of {@code file} to {@code visitor}, a buffer at a time: a line is split on
     * {@code \n} only (a {@code \r} before it is trailing white space), and the text after the last
     * one is a line too. A file that is not all ASCII is checked to be UTF-8, as any text perfab reads.
     */
    private static void lines(Path file, LineVisitor visitor) {
        byte[] buf = new byte[1 << 16];
        int bytes = 0;
        int number = 1;
        int seen = 0;
        try (InputStream in = BadInputException.open(file)) {
            int start = 0;
            int scanned = 0;
            for (int n = in.read(buf, bytes, buf.length - bytes); n >= 0; n = in.read(buf, bytes, buf.length - bytes)) {
                bytes += n;
                for (int i = scanned; i < bytes; i++) {
                    byte b = buf[i];
                    seen |= b;
                    if (b == '\n') {
                        visitor.line(number++, buf, start, i);
                        start = i + 1;
                    }
                }
                if (start == 0 && bytes == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2); // a line longer than the buffer
                } else {
                    System.arraycopy(buf, start, buf, 0, bytes - start);
                    bytes -= start;
                    start = 0;
                }
                scanned = bytes;
            }
        } catch (IOException e) {
            throw BadInputException.unreadable(file, e);
        }
        visitor.line(number, buf, 0, bytes);
        if (seen < 0) {
            BadInputException.read(file); // not ASCII: fails as reading it as text would, when it is not UTF-8
        }
    }

    /** One line split into its fields, reused from line to line; what a field is comes from its bytes. */
    private static final class Line {
        byte[] buf;
        int from;
        int to;
        int fields;
        int[] start = new int[8];
        int[] end = new int[8];

        /**
         * Takes the line's bytes from {@code from} to {@code to}, trailing white space stripped as
         * {@link String#stripTrailing} does, and splits it on spaces and tabs.
         */
        void set(byte[] bytes, int lineStart, int lineEnd) {
            buf = bytes;
            from = lineStart;
            to = lineEnd;
            while (to > from && whitespace(buf[to - 1])) {
                to--;
            }
            if (to > from && buf[to - 1] < 0) {
                // A line that ends outside ASCII: strip it as text (Unicode has more white space).
                buf = new String(buf, from, to - from, StandardCharsets.UTF_8)
                        .stripTrailing()
                        .getBytes(StandardCharsets.UTF_8);
                from = 0;
                to = buf.length;
            }
            fields = 0;
            int i = from;
            while (i < to) {
                while (i < to && (buf[i] == ' ' || buf[i] == '\t')) {
                    i++;
                }
                int s = i;
                while (i < to && buf[i] != ' ' && buf[i] != '\t') {
                    i++;
                }
                if (i > s) {
                    if (fields == start.length) {
                        start = Arrays.copyOf(start, fields * 2);
                        end = Arrays.copyOf(end, fields * 2);
                    }
                    start[fields] = s;
                    end[fields++] = i;
                }
            }
        }

        private static boolean whitespace(byte b) {
            return b == ' ' || (b >= 9 && b <= 13) || (b >= 28 && b <= 31);
        }

        /**
         * Returns whether the line has the shape of a result: {@code BenchmarkNAME}, a count, then
         * value and unit pairs.
         */
        boolean isResult() {
            if (fields < 4
                    || fields % 2 != 0
                    || end[0] - start[0] <= PREFIX.length
                    || !startsWith(buf, start[0], end[0], PREFIX)) {
                return false;
            }
            for (int j = start[1]; j < end[1]; j++) {
                if (buf[j] < '0' || buf[j] > '9') {
                    return false;
                }
            }
            return true;
        }

        /** Returns field {@code k} as text. */
        String field(int k) {
            return new String(buf, start[k], end[k] - start[k], StandardCharsets.UTF_8);
        }

        /** Returns the line, trailing white space stripped, as text. */
        String text() {
            return new String(buf, from, to - from, StandardCharsets.UTF_8);
        }

        /** Returns the cell name of a result line: its first field less {@code Benchmark} and the {@code -N} suffix. */
        String name(int procs) {
            return new String(
                    buf, start[0] + PREFIX.length, end[0] - start[0] - PREFIX.length - procs, StandardCharsets.UTF_8);
        }

        /**
         * Returns field {@code k} as a number, as {@link Double#parseDouble} reads it. Plain decimals
         * of at most 15 digits ({@code 1234.5678}) take one exact division, correctly rounded as the
         * JDK's own fast path is; anything else goes to the JDK.
         *
         * @throws NumberFormatException when the field is not a number
         */
        double number(int k) {
            long mantissa = 0;
            int digits = 0;
            int decimals = -1;
            boolean plain = true;
            boolean any = false;
            for (int i = start[k]; plain && i < end[k]; i++) {
                byte b = buf[i];
                if (b >= '0' && b <= '9') {
                    any = true;
                    if (mantissa != 0 || b != '0') {
                        digits++;
                    }
                    mantissa = mantissa * 10 + (b - '0');
                    decimals += decimals >= 0 ? 1 : 0;
                    plain = digits <= 15;
                } else {
                    plain = b == '.' && decimals < 0;
                    decimals = 0;
                }
            }
            if (plain && any && decimals < POWERS.length) {
                return decimals <= 0 ? (double) mantissa : mantissa / POWERS[decimals];
            }
            return Double.parseDouble(field(k));
        }
    }

    /** A benchmark name as printed, with its cells (or slots) by unit. */
    private static final class Name {
        final byte[] raw;
        final int hash;
        /** Whether the name is blank, with or without its own {@code -N} suffix. */
        final boolean blank;

        byte[][] units = new byte[0][];
        Cell[] cells = new Cell[0];
        Slot[] slots = new Slot[0];

        Name(byte[] raw, int hash) {
            this.raw = raw;
            this.hash = hash;
            int dash = Suffix.dash(raw, 0, raw.length);
            this.blank =
                    name(0).isBlank() || (dash >= 0 && name(raw.length - dash).isBlank());
        }

        /** Returns the cell name: the name less {@code Benchmark} and the last {@code procs} bytes. */
        String name(int procs) {
            return new String(raw, PREFIX.length, raw.length - PREFIX.length - procs, StandardCharsets.UTF_8);
        }

        /** Returns the index of the unit in field {@code k} of {@code line} among this name's, added when new. */
        private int unit(Line line, int k) {
            int s = line.start[k];
            int e = line.end[k];
            for (int u = 0; u < units.length; u++) {
                if (Arrays.equals(units[u], 0, units[u].length, line.buf, s, e)) {
                    return u;
                }
            }
            units = Arrays.copyOf(units, units.length + 1);
            units[units.length - 1] = Arrays.copyOfRange(line.buf, s, e);
            return -1;
        }

        /** Returns the cell of the unit in field {@code k} of {@code line}, made when the unit is new. */
        Cell cell(Path file, int number, Line line, int k, int procs) {
            int u = unit(line, k);
            if (u >= 0) {
                return cells[u];
            }
            Cell c = GoBench.cell(file, number, name(procs), line.field(k));
            cells = Arrays.copyOf(cells, cells.length + 1);
            cells[cells.length - 1] = c;
            return c;
        }

        /** Returns the slot of the unit in field {@code k} of {@code line}, added to {@code all} when new. */
        Slot slot(Line line, int k, List<Slot> all, int number) {
            int u = unit(line, k);
            if (u >= 0) {
                return slots[u];
            }
            String unit = line.field(k);
            Direction d = Units.direction(unit).orElse(unit.endsWith("/op") ? Direction.LOWER_IS_BETTER : null);
            Slot slot = new Slot(all.size(), this, unit, d, number);
            all.add(slot);
            slots = Arrays.copyOf(slots, slots.length + 1);
            slots[slots.length - 1] = slot;
            return slot;
        }
    }

    /** The names of a file, found by their bytes (open addressing): a name is a string once, when first read. */
    private static final class Names {
        private Name[] table = new Name[1024];
        private int size;

        /** Returns the name of {@code line}'s first field, made (and shown to {@code suffix}, when one is given) when new. */
        Name of(Line line, Suffix suffix) {
            byte[] buf = line.buf;
            int s = line.start[0];
            int e = line.end[0];
            int h = 0;
            for (int i = s; i < e; i++) {
                h = 31 * h + buf[i];
            }
            int mask = table.length - 1;
            for (int i = mix(h) & mask; ; i = (i + 1) & mask) {
                Name n = table[i];
                if (n == null) {
                    n = new Name(Arrays.copyOfRange(buf, s, e), h);
                    if (suffix != null) {
                        suffix.see(n.raw, 0, n.raw.length);
                    }
                    table[i] = n;
                    if (++size * 2 > table.length) {
                        grow();
                    }
                    return n;
                }
                if (n.hash == h && Arrays.equals(n.raw, 0, n.raw.length, buf, s, e)) {
                    return n;
                }
            }
        }

        private static int mix(int h) {
            return h ^ (h >>> 16);
        }

        private void grow() {
            Name[] old = table;
            table = new Name[old.length * 2];
            int mask = table.length - 1;
            for (Name n : old) {
                if (n != null) {
                    int i = mix(n.hash) & mask;
                    while (table[i] != null) {
                        i = (i + 1) & mask;
                    }
                    table[i] = n;
                }
            }
        }
    }
}
