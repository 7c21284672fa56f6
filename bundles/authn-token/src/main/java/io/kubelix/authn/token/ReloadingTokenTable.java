package io.kubelix.authn.token;

import io.kubelix.authn.token.TokenCsv.MalformedTokenFileException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The token file's current table, reloaded when the file's modification time, size or identity
 * changes. Requests trigger the check, at most once per interval and by one thread at a time;
 * the others keep using the current table, so no request waits on the file system. A missing
 * file accepts no token (deleting it revokes every token), and while it is missing every request
 * looks for it: at first start the server writes it while the plugins start, and its admin token
 * must work from the first request the server is ready for. A malformed file is rejected whole, as
 * kube does, and the last good table stays.
 */
final class ReloadingTokenTable {

    private static final Logger LOG = LoggerFactory.getLogger(ReloadingTokenTable.class);

    /** What identifies one version of the file without reading it. */
    private record Stamp(FileTime modified, long size, Object fileKey) {
    }

    private final Path file;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final ReentrantLock checking = new ReentrantLock();

    private volatile TokenTable table = TokenTable.EMPTY;
    private volatile long nextCheck;
    // Guarded by checking.
    private Stamp loaded;
    /** Whether the file existed at the last check; written under {@code checking}. */
    private volatile boolean present;
    private String lastProblem;

    /**
     * Loads the file now, if it exists.
     *
     * @param nanoTime {@code System::nanoTime}, or a test clock
     */
    ReloadingTokenTable(Path file, Duration interval, LongSupplier nanoTime) {
        this.file = file;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        checking.lock();
        try {
            nextCheck = nanoTime.getAsLong() + intervalNanos;
            refresh();
            if (!present) {
                LOG.info("Token file {} does not exist yet; no token is accepted until it does (checked every {} ms)",
                        file, interval.toMillis());
            }
        } finally {
            checking.unlock();
        }
    }

    /** The table to authenticate with; checks the file first when the interval has passed. */
    TokenTable current() {
        long now = nanoTime.getAsLong();
        if (!present) {
            // A file that is not there yet is looked for now; the wait is one stat, under the lock.
            checking.lock();
            try {
                if (!present) {
                    nextCheck = now + intervalNanos;
                    refresh();
                }
            } finally {
                checking.unlock();
            }
        } else if (now - nextCheck >= 0 && checking.tryLock()) {
            try {
                if (now - nextCheck >= 0) {
                    nextCheck = now + intervalNanos;
                    refresh();
                }
            } finally {
                checking.unlock();
            }
        }
        return table;
    }

    private void refresh() {
        Stamp stamp;
        try {
            // The stamp is taken before reading: a write during the read changes it again, so
            // the next check reloads.
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            stamp = new Stamp(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
        } catch (NoSuchFileException e) {
            if (present) {
                LOG.warn("Token file {} was removed; no token is accepted until it is back", file);
                present = false;
                loaded = null;
                lastProblem = null;
                table = TokenTable.EMPTY;
            }
            return;
        } catch (IOException e) {
            problem("cannot be read: " + e);
            return;
        }
        present = true;
        if (stamp.equals(loaded)) {
            return;
        }
        String content;
        try {
            content = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            problem("cannot be read: " + e);
            return;
        }
        loaded = stamp;
        try {
            TokenTable parsed = TokenCsv.parse(content, file.toString());
            table = parsed;
            lastProblem = null;
            LOG.info("Loaded {} token(s) from {}", parsed.size(), file);
        } catch (MalformedTokenFileException e) {
            problem("is malformed, " + e.getMessage());
        }
    }

    // Logged once per distinct problem, not once per check.
    private void problem(String description) {
        if (!Objects.equals(description, lastProblem)) {
            lastProblem = description;
            LOG.error("Token file {} {}; still using the previous {} token(s)", file, description, table.size());
        }
    }
}
