package io.kubelix.support.flags;

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
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A file's parsed content, reloaded when the file's modification time, size or identity changes
 * (kube-apiserver reloads its token file and client CA file the same way). Requests trigger the
 * check, at most once per interval and by one thread at a time; the others keep using the current
 * content, so no request waits on the file system. A missing file gives the empty content
 * (deleting it withdraws what it granted), and while it is missing every call looks for it: at
 * first start the server writes its files while the plugins start, and what they grant must work
 * from the first request the server is ready for. A malformed file is rejected whole and the last
 * good content stays.
 *
 * @param <T> the parsed content
 */
public final class ReloadingFile<T> {

    private static final Logger LOG = LoggerFactory.getLogger(ReloadingFile.class);

    /** Parses the file's text; throws {@link IllegalArgumentException} saying what is malformed. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(String content) throws IllegalArgumentException;
    }

    /** What identifies one version of the file without reading it. */
    private record Stamp(FileTime modified, long size, Object fileKey) {
    }

    private final String what;
    private final Path file;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final T empty;
    private final Parser<T> parser;
    private final Function<T, String> describe;
    private final ReentrantLock checking = new ReentrantLock();

    private volatile T content;
    private volatile long nextCheck;
    // Guarded by checking.
    private Stamp loaded;
    /** Whether the file existed at the last check; written under {@code checking}. */
    private volatile boolean present;
    private String lastProblem;

    /**
     * Loads the file now, if it exists.
     *
     * @param what     the file's name in log lines, such as {@code Token file}
     * @param empty    the content while the file is missing
     * @param describe the content in log lines, such as {@code 3 token(s)}
     * @param nanoTime {@code System::nanoTime}, or a test clock
     */
    public ReloadingFile(String what, Path file, Duration interval, LongSupplier nanoTime, T empty, Parser<T> parser,
                         Function<T, String> describe) {
        this.what = what;
        this.file = file;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        this.empty = empty;
        this.parser = parser;
        this.describe = describe;
        this.content = empty;
        checking.lock();
        try {
            nextCheck = nanoTime.getAsLong() + intervalNanos;
            refresh();
            if (!present) {
                LOG.info("{} {} does not exist yet; it is read once it does (checked every {} ms)", what, file,
                        interval.toMillis());
            }
        } finally {
            checking.unlock();
        }
    }

    public Path path() {
        return file;
    }

    /** The content to use; checks the file first when the interval has passed. */
    public T current() {
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
        return content;
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
                LOG.warn("{} {} was removed; nothing it granted is accepted until it is back", what, file);
                present = false;
                loaded = null;
                lastProblem = null;
                content = empty;
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
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            problem("cannot be read: " + e);
            return;
        }
        loaded = stamp;
        try {
            T parsed = parser.parse(text);
            content = parsed;
            lastProblem = null;
            LOG.info("Loaded {} from {}", describe.apply(parsed), file);
        } catch (IllegalArgumentException e) {
            problem("is malformed, " + e.getMessage());
        }
    }

    // Logged once per distinct problem, not once per check.
    private void problem(String description) {
        if (!Objects.equals(description, lastProblem)) {
            lastProblem = description;
            LOG.error("{} {} {}; still using the previous {}", what, file, description, describe.apply(content));
        }
    }
}
