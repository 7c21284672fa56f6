package io.kubelix.runtime.endpoints;

import org.eclipse.jetty.util.Callback;

import java.util.function.Consumer;

/**
 * Where a watch stream's events go: a chunked HTTP response, or a WebSocket. At most one
 * {@link #write} is outstanding at a time.
 */
interface WatchSink {
    /**
     * Opens the stream; {@code opened} completes once the client sees it open. {@code gone} is told
     * if the client goes away or the connection fails at any time after.
     */
    void open(Callback opened, Consumer<Throwable> gone);

    /** Writes the batch's events; {@code written} completes when the batch's buffer may be reused. */
    void write(WatchBatch batch, Callback written);

    /** Ends the stream normally, after what was written. */
    void end();

    /** Ends the stream at once, without waiting for pending writes. */
    void abort(Throwable failure);
}
