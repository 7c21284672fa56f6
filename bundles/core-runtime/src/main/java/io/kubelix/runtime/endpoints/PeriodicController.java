package io.kubelix.runtime.endpoints;

import org.slf4j.LoggerFactory;

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
    /** How long {@link #stop()} waits for a running pass. */
    static final Duration STOP_WAIT = Duration.ofSeconds(30);
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

    /** Stops the schedule and waits for a pass that is running (interrupted) to end, then releases its state. */
    final void stop() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LoggerFactory.getLogger(getClass()).warn("a pass still runs {} s after the controller was stopped",
                        STOP_WAIT.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopped();
    }

    /** Releases what the passes keep between them; called once no pass runs any more. */
    void stopped() {
    }

    /** One pass; it handles its own errors, since one that escapes would end the schedule. */
    abstract void syncAll();
}
