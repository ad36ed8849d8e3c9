package org.perfab.ab;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** File-tree chores of a run: snapshots, fingerprints of build outputs, copies, deletion. */
final class Trees {
    private Trees() {}

    /** The size and modification time of a file when its side was checked out. */
    record Stamp(long size, long modified) {}

    /** Returns the stamp of every regular file and link below {@code dir}, by relative path. */
    static Map<String, Stamp> snapshot(Path dir) throws IOException {
        Map<String, Stamp> stamps = new HashMap<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() || attrs.isSymbolicLink()) {
                    stamps.put(
                            relative(dir, file),
                            new Stamp(attrs.size(), attrs.lastModifiedTime().toMillis()));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return stamps;
    }

    /**
     * The fingerprint of a build's outputs.
     *
     * @param digest SHA-256 over every output's relative path and content, in path order
     * @param files how many output files there are
     * @param bytes their total size
     */
    record Fingerprint(String digest, int files, long bytes) {
        static final Fingerprint NONE = new Fingerprint("", 0, 0);
    }

    /**
     * Returns the fingerprint of what a build wrote: every file below {@code out}, and every file
     * below {@code tree} that is new or changed since {@code checkout} was taken.
     */
    static Fingerprint outputs(Path tree, Map<String, Stamp> checkout, Path out) throws IOException {
        List<Path[]> files = new ArrayList<>(); // {root, file}
        collect(tree, files, checkout);
        collect(out, files, null);
        files.sort((a, b) -> label(a).compareTo(label(b)));
        MessageDigest all = sha256();
        long bytes = 0;
        byte[] buffer = new byte[1 << 16];
        for (Path[] f : files) {
            all.update(label(f).getBytes(StandardCharsets.UTF_8));
            all.update((byte) 0);
            if (Files.isSymbolicLink(f[1])) {
                all.update(Files.readSymbolicLink(f[1]).toString().getBytes(StandardCharsets.UTF_8));
            } else {
                try (InputStream in = Files.newInputStream(f[1])) {
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        all.update(buffer, 0, n);
                        bytes += n;
                    }
                }
            }
            all.update((byte) 0);
        }
        return files.isEmpty()
                ? Fingerprint.NONE
                : new Fingerprint(HexFormat.of().formatHex(all.digest()), files.size(), bytes);
    }

    private static String label(Path[] f) {
        return f[0].getFileName() + "/" + relative(f[0], f[1]);
    }

    private static void collect(Path root, List<Path[]> into, Map<String, Stamp> unchanged) throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (!attrs.isRegularFile() && !attrs.isSymbolicLink()) {
                    return FileVisitResult.CONTINUE;
                }
                if (unchanged != null) {
                    Stamp before = unchanged.get(relative(root, file));
                    if (before != null
                            && before.size() == attrs.size()
                            && before.modified() == attrs.lastModifiedTime().toMillis()) {
                        return FileVisitResult.CONTINUE;
                    }
                }
                into.add(new Path[] {root, file});
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Copies the tree {@code from} to {@code to} (which must not exist), keeping links and times. */
    static void copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(relative(from, dir)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(
                        file,
                        to.resolve(relative(from, file)),
                        StandardCopyOption.COPY_ATTRIBUTES,
                        LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Returns whether a file or link below {@code dir} holds {@code text} (as UTF-8 bytes): a build
     * that wrote its own folder into its outputs (a debug path, a dependency file, an rpath) only
     * works where it was built.
     */
    static boolean mentions(Path dir, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        boolean[] found = {false};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                found[0] = attrs.isSymbolicLink()
                        ? Files.readSymbolicLink(file).toString().contains(text)
                        : attrs.isRegularFile() && contains(file, needle);
                return found[0] ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
            }
        });
        return found[0];
    }

    private static boolean contains(Path file, byte[] needle) throws IOException {
        byte[] buffer = new byte[Math.max(1 << 20, 2 * needle.length)];
        int kept = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer, kept, buffer.length - kept);
                    n > 0;
                    n = in.read(buffer, kept, buffer.length - kept)) {
                int end = kept + n;
                for (int i = 0; i + needle.length <= end; i++) {
                    if (Arrays.equals(buffer, i, i + needle.length, needle, 0, needle.length)) {
                        return true;
                    }
                }
                kept = Math.min(needle.length - 1, end);
                System.arraycopy(buffer, end - kept, buffer, 0, kept);
            }
        }
        return false;
    }

    /** Deletes {@code dir} and everything below it, when it exists; links are not followed. */
    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            List<Path> all =
                    walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList();
            for (Path p : all) {
                if (!Files.isSymbolicLink(p)) {
                    p.toFile().setWritable(true);
                }
                Files.deleteIfExists(p);
            }
        }
    }

    /** Returns the name of a cache entry whose key, in full, is {@code key}: the first 32 hex digits of its SHA-256. */
    static String entryName(String key) {
        MessageDigest digest = sha256();
        digest.update(key.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest.digest()).substring(0, 32);
    }

    /** Returns a new SHA-256 digest. */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String relative(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }
}
