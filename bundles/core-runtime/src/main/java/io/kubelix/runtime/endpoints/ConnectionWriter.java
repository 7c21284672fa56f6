package io.kubelix.runtime.endpoints;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The watch writes of one HTTP/2 connection, gathered. Over HTTP/2 a client's watches share one TLS
 * connection, and an event fanned out to a hundred of them would otherwise leave as a hundred
 * frames, each in a TLS record and a socket write of its own. Jetty's flusher for a connection
 * gathers only the frames queued while it is flushing, so here the writes of a burst are held for
 * {@link #LINGER_MICROS} µs, the first one is written, and the rest are written from its
 * completion, while the flusher is still at work: it then takes them all into one write. If the
 * first write does not complete soon (its stream is stalled by a client that does not read), the
 * rest are written anyway after {@link #STALL_MILLIS} ms, so no stream waits for another.
 */
final class ConnectionWriter {
    static final long LINGER_MICROS = 500;
    static final long STALL_MILLIS = 5;
    /** Per connection, forgotten with it. */
    private static final Map<Object, ConnectionWriter> WRITERS = Collections.synchronizedMap(new WeakHashMap<>());

    private record Write(Response response, ByteBuffer bytes, Callback callback) {
    }

    private final Scheduler scheduler;
    private final Executor executor;
    private final ConcurrentLinkedQueue<Write> queue = new ConcurrentLinkedQueue<>();
    /** Whether a burst is being held or written; the next one starts once it is done. */
    private final AtomicBoolean busy = new AtomicBoolean();

    ConnectionWriter(Scheduler scheduler, Executor executor) {
        this.scheduler = scheduler;
        this.executor = executor;
    }

    /** The writer for the connection {@code request} came on; its bursts are written by {@code executor}. */
    static ConnectionWriter of(Request request, Executor executor) {
        return WRITERS.computeIfAbsent(request.getConnectionMetaData().getConnection(),
                c -> new ConnectionWriter(request.getComponents().getScheduler(), executor));
    }

    /**
     * Writes {@code bytes} to {@code response} (not its last content); {@code callback} completes
     * when it is written. At most one write per response may be outstanding, as with Jetty's own.
     */
    void write(Response response, ByteBuffer bytes, Callback callback) {
        queue.add(new Write(response, bytes, callback));
        startBurst();
    }

    private void startBurst() {
        if (!queue.isEmpty() && busy.compareAndSet(false, true)) {
            scheduler.schedule(() -> executor.execute(this::writeBurst), LINGER_MICROS, TimeUnit.MICROSECONDS);
        }
    }

    private void writeBurst() {
        List<Write> burst = new ArrayList<>();
        for (Write w; (w = queue.poll()) != null; ) {
            burst.add(w);
        }
        if (burst.isEmpty()) {
            done();
            return;
        }
        AtomicBoolean restWritten = new AtomicBoolean();
        Runnable writeRest = () -> {
            if (restWritten.compareAndSet(false, true)) {
                for (int i = 1; i < burst.size(); i++) {
                    Write w = burst.get(i);
                    w.response.write(false, w.bytes, w.callback);
                }
                done();
            }
        };
        Write first = burst.get(0);
        AtomicReference<Scheduler.Task> stalled = new AtomicReference<>();
        first.response.write(false, first.bytes, new Callback() {
            @Override
            public void succeeded() {
                try {
                    first.callback.succeeded();
                } finally {
                    finish();
                }
            }

            @Override
            public void failed(Throwable x) {
                try {
                    first.callback.failed(x);
                } finally {
                    finish();
                }
            }

            private void finish() {
                writeRest.run();
                Scheduler.Task task = stalled.get();
                if (task != null) {
                    task.cancel();
                }
            }
        });
        if (!restWritten.get()) {
            // Not written at once: do not let the others wait for it for long.
            stalled.set(scheduler.schedule(() -> executor.execute(writeRest), STALL_MILLIS, TimeUnit.MILLISECONDS));
        }
    }

    private void done() {
        busy.set(false);
        // A write queued while this burst was written starts the next one.
        startBurst();
    }
}
