package io.kubelix.runtime.endpoints;

import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A watch stream that holds no thread while it waits: the watch tells it when events are ready,
 * a pool thread writes what is queued to the {@link WatchSink} in one non-blocking write, and the
 * next batch is taken when that write completes. The stream ends at its deadline, when the watch
 * ends, when it is {@linkplain #end() ended} (its resource is no longer served), or when the client
 * goes away; it is aborted when the watch was terminated because the client fell behind while a
 * write to it is stuck, so neither the write nor the connection is held for a client that does not
 * read.
 */
final class AsyncWatchStream {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncWatchStream.class);
    private static final int MAX_BATCH_BYTES = 64 * 1024;
    /**
     * A batch buffer up to this size is kept for the stream's next batch once its write completes;
     * a larger one (a burst, such as a watch's initial state) is left to the collector.
     */
    private static final int BATCH_KEEP_BYTES = 16 * 1024;

    private final Watch watch;
    private final WatchEncoder encoder;
    private final WatchSink sink;
    private final Executor executor;
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
    private volatile WatchBatch batch;
    private final Scheduler scheduler;
    private final long timeoutSeconds;
    private volatile Scheduler.Task timeout;
    private volatile Runnable onFinish = () -> { };

    AsyncWatchStream(WatchSink sink, Scheduler scheduler, String path, Watch watch, WatchEncoder encoder,
                     long timeoutSeconds, Executor writers) {
        this.watch = watch;
        this.encoder = encoder;
        this.sink = sink;
        this.executor = writers;
        this.path = path;
        this.scheduler = scheduler;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * Starts streaming: the sink is opened, and events are written once the client sees it open.
     * The timeout starts then: one of 0 s (a negative timeoutSeconds) may fire at once, before the
     * timer's handle is kept, and ends the stream only after the sink is open.
     */
    void start() {
        watch.onEnd(this::schedulePump);
        writing = true;
        sink.open(Callback.from(this::writeDone, this::fail), this::fail);
        Scheduler.Task task = scheduler.schedule(() -> {
            expired = true;
            schedulePump();
        }, timeoutSeconds, TimeUnit.SECONDS);
        timeout = task;
        if (finished.get()) {
            task.cancel();
        }
    }

    private void cancelTimeout() {
        Scheduler.Task task = timeout;
        if (task != null) {
            task.cancel();
        }
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

    /** Ends the stream at once: the sink is aborted and the watch closed. */
    void abort(Throwable failure) {
        fail(failure);
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
        WatchBatch out = batch != null ? batch : new WatchBatch();
        out.reset();
        WatchEvent ev;
        boolean endAfter = false;
        while (out.size() < MAX_BATCH_BYTES && (ev = watch.poll()) != null) {
            if (encoder.encode(ev, out)) {
                out.endEvent();
            }
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
            sink.write(out, written);
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
            cancelTimeout();
            watch.close();
            onFinish.run();
            sink.end();
        }
    }

    private void fail(Throwable failure) {
        if (finished.compareAndSet(false, true)) {
            cancelTimeout();
            watch.close();
            onFinish.run();
            LOG.debug("watch {} ended: {}", path, failure.toString());
            sink.abort(failure);
        }
    }
}
