package io.kubelix.bench;

import java.util.concurrent.locks.LockSupport;

/** Fixed-rate schedule: {@link #awaitTick(long)} returns at start + i/rate, whatever earlier ticks cost. */
final class Pacer {
    private final long start = System.nanoTime();
    private final double periodNanos;

    Pacer(double perSecond) {
        this.periodNanos = 1e9 / perSecond;
    }

    void awaitTick(long i) {
        long due = start + (long) (i * periodNanos);
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }
}
