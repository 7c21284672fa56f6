package io.kubelix.runtime.endpoints;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A controller the server runs in itself, as kube-controller-manager runs its loops: one pass
 * over what it watches every {@code interval}, on a daemon thread of its own, the next pass
 * starting {@code interval} after the previous one ended.
 */
abstract class PeriodicController {
    private final Duration interval;
    private final ScheduledExecutorService executor;

    PeriodicController(String threadName, Duration interval) {
        this.interval = interval;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    final void start() {
        executor.scheduleWithFixedDelay(this::syncAll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    final void stop() {
        executor.shutdownNow();
        stopped();
    }

    /** Releases what the passes keep between them; called once the schedule has stopped. */
    void stopped() {
    }

    /** One pass; it handles its own errors, since one that escapes would end the schedule. */
    abstract void syncAll();
}
