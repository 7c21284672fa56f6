package io.kubelix.api.storage;

import org.osgi.annotation.versioning.ConsumerType;

import java.time.Duration;

/**
 * An open watch (watch.Interface). One consumer reads events in order with {@link #next}; any
 * thread may {@link #close} it. A stream that ends on its own (the backend stopped, or an ERROR
 * event was delivered) reports {@link #done()} once its events are drained.
 */
@ConsumerType
public interface Watch extends AutoCloseable {

    /**
     * Waits up to {@code timeout} for the next event.
     *
     * @return the event, or null when none arrived in time or the stream is done
     */
    WatchEvent next(Duration timeout) throws InterruptedException;

    /** True once the stream has ended and every event has been read. */
    boolean done();

    /**
     * The next event if one is ready, without waiting; null otherwise (check {@link #done()}).
     * With {@link #onReady}, this lets a server stream events without a thread per watch.
     */
    default WatchEvent poll() {
        try {
            return next(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Asks to be told, once, when {@link #poll()} has something to return or the stream is done;
     * the listener runs on the producer's thread and must not block. A watch that cannot notify
     * returns false, and the caller waits with {@link #next} instead.
     */
    default boolean onReady(Runnable listener) {
        return false;
    }

    /**
     * RequestWatchProgress: asks the backend for a BOOKMARK at its current revision, delivered
     * after every event up to that revision. A watcher uses it to learn quickly that it is up to
     * date; backends that cannot do this ignore it (bookmarks then come at their own pace).
     */
    default void requestProgress() {
    }

    /**
     * True when the producer ended this stream because its reader fell too far behind (a watch cache
     * terminates slow watchers, dropping what they had queued): the reader re-watches from the last
     * version it saw, so a server should cut off what it is still writing to it rather than wait.
     */
    default boolean terminatedForBeingSlow() {
        return false;
    }

    /**
     * Asks to be told, once, when the producer ends the stream (its backend went away, or the reader
     * was {@linkplain #terminatedForBeingSlow() too slow}), even while {@link #onReady} is not armed;
     * the listener runs on the producer's thread and must not block. A watch that cannot notify
     * returns false.
     */
    default boolean onEnd(Runnable listener) {
        return false;
    }

    /** Stops the watch and releases what it holds; safe to call more than once. */
    @Override
    void close();
}
