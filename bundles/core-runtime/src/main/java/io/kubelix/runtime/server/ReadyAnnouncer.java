package io.kubelix.runtime.server;

import io.kubelix.api.server.HealthChecker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Says once, at info level, when the server first becomes ready: it runs the {@code /readyz}
 * checks every {@link #POLL} from the moment the server listens until they all pass, then logs
 * the line {@code ready} gives, and ends. Probes that fail are logged at debug level only, so an
 * operator would otherwise not learn why a server is slow to be ready: if it is not ready after
 * {@link #SLOW}, the failing checks are logged once, with their reasons, as a warning.
 */
final class ReadyAnnouncer {
    private static final Logger LOG = LoggerFactory.getLogger(GenericAPIServer.class);
    static final Duration POLL = Duration.ofMillis(100);
    static final Duration SLOW = Duration.ofSeconds(60);

    private final Supplier<List<HealthChecker>> readyz;
    private final Supplier<String> ready;
    private final Duration slow;
    private final Thread thread;
    private volatile boolean stopped;

    /**
     * @param readyz the checks of {@code /readyz}
     * @param ready  the line to log when they first all pass
     */
    ReadyAnnouncer(Supplier<List<HealthChecker>> readyz, Supplier<String> ready) {
        this(readyz, ready, SLOW);
    }

    ReadyAnnouncer(Supplier<List<HealthChecker>> readyz, Supplier<String> ready, Duration slow) {
        this.readyz = readyz;
        this.ready = ready;
        this.slow = slow;
        this.thread = new Thread(this::run, "kubelix-ready");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Ends the wait (the server stops); returns at once. */
    void stop() {
        stopped = true;
        thread.interrupt();
    }

    /** Whether it has said the server is ready, or stopped trying. */
    boolean done() {
        return !thread.isAlive();
    }

    private void run() {
        long began = System.nanoTime();
        boolean warned = false;
        while (!stopped) {
            List<String> failing = failing();
            if (failing.isEmpty()) {
                if (!stopped) {
                    LOG.info(ready.get());
                }
                return;
            }
            if (!warned && System.nanoTime() - began >= slow.toNanos()) {
                warned = true;
                LOG.warn("not ready after {} s: {}", (System.nanoTime() - began) / 1_000_000_000L,
                        String.join("; ", failing));
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Each failing check as {@code name: reason}; empty when all pass. */
    private List<String> failing() {
        List<String> failing = new ArrayList<>();
        for (HealthChecker c : readyz.get()) {
            try {
                c.check();
            } catch (Exception | LinkageError e) {
                failing.add(c.name() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        }
        return failing;
    }
}
