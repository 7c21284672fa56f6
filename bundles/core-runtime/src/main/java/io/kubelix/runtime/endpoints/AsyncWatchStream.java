package io.kubelix.runtime.endpoints;

import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A watch stream that holds no thread while it waits: the watch tells it when events are ready,
 * a pool thread writes what is queued in one non-blocking write, and the next batch is taken when
 * that write completes. The stream ends at its deadline, when the watch ends, when it is
 * {@linkplain #end() ended} (its resource is no longer served), or when the client goes away; it is
 * aborted when the watch was terminated because the client fell behind while a write to it is
 * stuck, so neither the write nor the connection is held for a client that does not read.
 */
final class AsyncWatchStream {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncWatchStream.class);
    private static final int MAX_BATCH_BYTES = 64 * 1024;
    /** A batch buffer's first size: one event of a typical object. */
    private static final int BATCH_START_BYTES = 2 * 1024;
    /**
     * A batch buffer up to this size is kept for the stream's next batch once its write completes;
     * a larger one (a burst, such as a watch's initial state) is left to the collector.
     */
    private static final int BATCH_KEEP_BYTES = 16 * 1024;

    private final Watch watch;
    private final WatchEncoder encoder;
    private final Response response;
    private final Callback callback;
    private final Executor executor;
    /** Gathers the writes of the watches sharing an HTTP/2 connection; null on HTTP/1.1, where a connection has one. */
    private final ConnectionWriter connection;
    private final String path;
    /** The "serial executor" guard: pump runs on one thread at a time, and runs again if asked meanwhile. */
    private final AtomicInteger pumpRequests = new AtomicInteger();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile boolean expired;
    private volatile boolean writing;
    /**
     * The buffer the next batch is encoded into, reused from write to write, so an event sent to a
     * thousand watchers does not cost a thousand new buffers; null while it is being written.
     */
    private volatile Batch batch;
    private Scheduler.Task timeout;
    private volatile Runnable onFinish = () -> { };

    AsyncWatchStream(Request request, Response response, Callback callback, Watch watch, WatchEncoder encoder,
                     long timeoutSeconds, Executor writers) {
        this.watch = watch;
        this.encoder = encoder;
        this.response = response;
        this.callback = callback;
        this.executor = writers;
        this.connection = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2
                ? ConnectionWriter.of(request, writers) : null;
        this.path = request.getHttpURI().getPath();
        request.addFailureListener(this::fail);
        this.timeout = request.getComponents().getScheduler().schedule(() -> {
            expired = true;
            schedulePump();
        }, timeoutSeconds, TimeUnit.SECONDS);
    }

    /** Starts streaming: the response is committed at once so the client sees the watch open. */
    void start() {
        watch.onEnd(this::schedulePump);
        writing = true;
        response.write(false, ByteBuffer.allocate(0), Callback.from(this::writeDone, this::fail));
    }

    /** Runs {@code action} once the stream has ended, however it ends. */
    void onFinish(Runnable action) {
        onFinish = action;
        if (finished.get()) {
            action.run();
        }
    }

    /** Ends the stream as its timeout does: what is queued is written, then the response completes. */
    void end() {
        expired = true;
        schedulePump();
    }

    private void schedulePump() {
        if (pumpRequests.getAndIncrement() == 0) {
            executor.execute(this::pump);
        }
    }

    private void pump() {
        do {
            pumpOnce();
        } while (pumpRequests.decrementAndGet() > 0);
    }

    private void pumpOnce() {
        if (writing && watch.terminatedForBeingSlow()) {
            // The client stopped reading and the watch gave up on it: abort rather than hold the
            // stuck write and the connection until the client reads again.
            fail(new java.io.IOException("watch terminated: the client fell behind"));
            return;
        }
        if (finished.get() || writing) {
            return;
        }
        Batch out = batch != null ? batch : new Batch();
        out.reset();
        WatchEvent ev;
        boolean endAfter = false;
        while (out.size() < MAX_BATCH_BYTES && (ev = watch.poll()) != null) {
            encoder.encode(ev, out);
            if (ev.type() == WatchEvent.Type.ERROR) {
                endAfter = true;
                break;
            }
        }
        if (out.size() > 0) {
            writing = true;
            batch = null;
            boolean end = endAfter;
            Callback written = Callback.from(() -> {
                // Written: the buffer is free again (set before writeDone lets the next pump run).
                if (out.capacity() <= BATCH_KEEP_BYTES) {
                    batch = out;
                }
                if (end) {
                    finish();
                } else {
                    writeDone();
                }
            }, this::fail);
            ByteBuffer bytes = out.bytes();
            if (connection != null) {
                connection.write(response, bytes, written);
            } else {
                response.write(false, bytes, written);
            }
            return;
        }
        if (expired || watch.done()) {
            finish();
            return;
        }
        // Nothing queued: ask to be woken; if an event slipped in meanwhile, onReady calls back at once.
        watch.onReady(this::schedulePump);
    }

    private void writeDone() {
        writing = false;
        schedulePump();
    }

    private void finish() {
        if (finished.compareAndSet(false, true)) {
            timeout.cancel();
            watch.close();
            onFinish.run();
            response.write(true, ByteBuffer.allocate(0), callback);
        }
    }

    private void fail(Throwable failure) {
        if (finished.compareAndSet(false, true)) {
            timeout.cancel();
            watch.close();
            onFinish.run();
            LOG.debug("watch {} ended: {}", path, failure.toString());
            callback.failed(failure);
        }
    }

    /** A batch's bytes, written from the array they were encoded into. */
    private static final class Batch extends ByteArrayOutputStream {
        Batch() {
            super(BATCH_START_BYTES);
        }

        /** The bytes encoded since the last {@link #reset()}, not copied. */
        ByteBuffer bytes() {
            return ByteBuffer.wrap(buf, 0, count);
        }

        int capacity() {
            return buf.length;
        }
    }
}
