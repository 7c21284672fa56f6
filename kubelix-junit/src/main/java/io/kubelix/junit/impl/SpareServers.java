package io.kubelix.junit.impl;

import io.kubelix.junit.KubelixServer;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Servers started ahead of need ({@code kubelix.junit.prestart=true}): whenever a test class takes
 * a server, the next one, with the same flags, starts in the background while the class runs, so
 * the next class finds it ready instead of waiting for a start. Each class still gets a fresh
 * server. The last spare is stopped (or its start abandoned) when the run ends.
 */
public final class SpareServers implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    private final ExecutorService starter = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kubelix-junit-prestart");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<Map<String, String>, Future<KubelixServer>> spares = new HashMap<>();
    private volatile boolean closed;

    /**
     * A started server with these flags: the spare when there is one (waiting for it if it is still
     * starting), else one started now. The next spare starts once this one is ready, so the two
     * never compete for the CPU while the caller waits.
     */
    public KubelixServer take(Map<String, String> flags) {
        Future<KubelixServer> spare;
        synchronized (this) {
            spare = spares.remove(flags);
        }
        KubelixServer server = spare == null ? KubelixServer.start(flags) : ready(spare);
        synchronized (this) {
            if (!closed) {
                spares.put(flags, starter.submit(() -> startSpare(flags)));
            }
        }
        return server;
    }

    private static KubelixServer ready(Future<KubelixServer> spare) {
        try {
            return spare.get();
        } catch (ExecutionException e) {
            // a spare that failed to start says why as if it had been started here
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a Kubelix server", e);
        }
    }

    /**
     * Stops the spares: a started one is closed here, one still starting is interrupted (its start
     * then cleans up) or, when it finishes anyway, closes itself.
     */
    @Override
    public synchronized void close() throws InterruptedException {
        closed = true;
        for (Future<KubelixServer> spare : spares.values()) {
            if (!spare.cancel(true)) {
                try {
                    KubelixServer server = spare.get();
                    if (server != null) {
                        server.close();
                    }
                } catch (CancellationException | ExecutionException e) {
                    // failed to start: nothing to stop
                }
            }
        }
        spares.clear();
        starter.shutdown();
        starter.awaitTermination(60, TimeUnit.SECONDS);
    }

    private KubelixServer startSpare(Map<String, String> flags) {
        KubelixServer server = KubelixServer.start(flags);
        if (closed) {
            server.close();
            return null;
        }
        return server;
    }
}
