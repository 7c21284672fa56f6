package io.kubelix.runtime.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The audit log file, rotated as kube-apiserver's (lumberjack) rotates it: a write that would take
 * the file past {@code maxSize} megabytes (100 when 0) first renames it to
 * {@code <name>-<UTC time>.<ext>}, such as {@code audit-2026-11-25T05-00-00.000.log}, and starts a
 * new one; then backups beyond the {@code maxBackups} newest, and those older than {@code maxAge}
 * days by the time in their names, are removed (0: none is removed for that reason). The file is
 * created owner-only, as kube creates it.
 */
public final class RotatingFile implements AutoCloseable {
    static final DateTimeFormatter BACKUP_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH-mm-ss.SSS");
    private static final long MEGABYTE = 1024 * 1024;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;
    private final long maxBytes;
    private final int maxAgeDays;
    private final int maxBackups;
    private final Clock clock;
    private final String prefix;
    private final String ext;
    private FileChannel channel;
    private long size;

    /** @throws IOException when the file or its directory cannot be created (kube's ensureLogFile) */
    public RotatingFile(Path file, int maxSizeMegabytes, int maxAgeDays, int maxBackups) throws IOException {
        this(file, maxSizeMegabytes == 0 ? 100 * MEGABYTE : maxSizeMegabytes * MEGABYTE, maxAgeDays, maxBackups,
                Clock.systemUTC());
    }

    RotatingFile(Path file, long maxBytes, int maxAgeDays, int maxBackups, Clock clock) throws IOException {
        this.file = file.toAbsolutePath();
        this.maxBytes = maxBytes;
        this.maxAgeDays = maxAgeDays;
        this.maxBackups = maxBackups;
        this.clock = clock;
        String name = this.file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        this.ext = dot < 0 ? "" : name.substring(dot);
        this.prefix = (dot < 0 ? name : name.substring(0, dot)) + "-";
        Files.createDirectories(this.file.getParent());
        if (!Files.exists(this.file)) {
            create(this.file);
        }
    }

    /** Writes one record whole into the current file, rotating first if it would not fit. */
    public synchronized void write(byte[] bytes) throws IOException {
        if (bytes.length > maxBytes) {
            throw new IOException("write length " + bytes.length + " exceeds maximum file size " + maxBytes);
        }
        if (channel == null) {
            openExistingOrNew(bytes.length);
        }
        if (size + bytes.length > maxBytes) {
            rotate();
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            size += channel.write(buffer);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    private void openExistingOrNew(int writeLength) throws IOException {
        mill();
        if (!Files.exists(file)) {
            openNew();
            return;
        }
        long existing = Files.size(file);
        if (existing + writeLength >= maxBytes) {
            rotate();
            return;
        }
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        size = existing;
    }

    private void rotate() throws IOException {
        close();
        openNew();
        mill();
    }

    /** Moves the current file to its backup name and starts an empty one. */
    private void openNew() throws IOException {
        Files.createDirectories(file.getParent());
        if (Files.exists(file)) {
            Files.move(file, backupName(clock.instant()), StandardCopyOption.ATOMIC_MOVE);
        }
        create(file);
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        size = 0;
    }

    Path backupName(Instant t) {
        return file.resolveSibling(prefix + BACKUP_TIME.format(LocalDateTime.ofInstant(t, ZoneOffset.UTC)) + ext);
    }

    /** Removes the backups beyond maxBackups and those older than maxAge. */
    private void mill() throws IOException {
        if (maxBackups == 0 && maxAgeDays == 0) {
            return;
        }
        List<Backup> backups = backups();
        List<Backup> remove = new ArrayList<>();
        if (maxBackups > 0 && backups.size() > maxBackups) {
            remove.addAll(backups.subList(maxBackups, backups.size()));
            backups = backups.subList(0, maxBackups);
        }
        if (maxAgeDays > 0) {
            Instant cutoff = clock.instant().minus(Duration.ofDays(maxAgeDays));
            for (Backup b : backups) {
                if (b.time().isBefore(cutoff)) {
                    remove.add(b);
                }
            }
        }
        for (Backup b : remove) {
            Files.deleteIfExists(b.path());
        }
    }

    /** The backups of this file, newest first. */
    List<Backup> backups() throws IOException {
        List<Backup> found = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(file.getParent())) {
            for (Path p : dir) {
                String name = p.getFileName().toString();
                if (!name.startsWith(prefix) || !name.endsWith(ext) || !Files.isRegularFile(p)) {
                    continue;
                }
                String stamp = name.substring(prefix.length(), name.length() - ext.length());
                try {
                    found.add(new Backup(p, LocalDateTime.parse(stamp, BACKUP_TIME).toInstant(ZoneOffset.UTC)));
                } catch (DateTimeParseException e) {
                    // not one of ours
                }
            }
        }
        found.sort(Comparator.comparing(Backup::time).reversed());
        return found;
    }

    record Backup(Path path, Instant time) {
    }

    private static void create(Path p) throws IOException {
        try {
            Files.createFile(p, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (UnsupportedOperationException e) {
            Files.createFile(p);
        }
    }
}
