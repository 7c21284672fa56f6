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

    /** Stops the watch and releases what it holds; safe to call more than once. */
    @Override
    void close();
}
