package io.kubelix.runtime.flowcontrol;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * kube's eventclock: the time priority and fairness reads (for virtual time and waits) and
 * schedules by (wait limits, seats kept after a write, seat redistribution). The server's runs on
 * one daemon thread; tests give a fake one, so no test depends on timing.
 */
public interface EventClock {
    /** A monotonic reading, in nanoseconds. */
    long nanoTime();

    /** Runs {@code task} after {@code delay}; returns what cancels it. */
    Runnable schedule(Runnable task, Duration delay);

    /** The system's clock, scheduling on a thread of its own; {@link System#nanoTime()}. */
    static EventClock system() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "kubelix-apf-clock");
            t.setDaemon(true);
            return t;
        });
        // Wait limits are cancelled by nearly every dispatch: they leave the queue at once.
        timer.setRemoveOnCancelPolicy(true);
        return new EventClock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public Runnable schedule(Runnable task, Duration delay) {
                var f = timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
                return () -> f.cancel(false);
            }
        };
    }
}
