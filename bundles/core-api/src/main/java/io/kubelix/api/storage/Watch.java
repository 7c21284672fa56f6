package io.kubelix.api.storage;

import java.time.Duration;

/**
 * An open watch (watch.Interface). One consumer reads events in order with {@link #next}; any
 * thread may {@link #close} it. A stream that ends on its own (the backend stopped, or an ERROR
 * event was delivered) reports {@link #done()} once its events are drained.
 */
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

    /** Stops the watch and releases what it holds; safe to call more than once. */
    @Override
    void close();
}
