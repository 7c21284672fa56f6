package io.kubelix.runtime.metrics;

import java.util.function.LongSupplier;

/**
 * The most requests of one kind in flight during the last second, as kube-apiserver's maxinflight
 * watermark reports {@code apiserver_current_inflight_requests}: the metric's volatility is smoothed
 * into the peak of each one-second window.
 */
public final class InflightWatermark {
    private static final long WINDOW_NANOS = 1_000_000_000L;

    private final LongSupplier nanoClock;
    private int current;
    private int windowMax;
    private int lastWindowMax;
    private long windowStart;

    public InflightWatermark() {
        this(System::nanoTime);
    }

    InflightWatermark(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.windowStart = nanoClock.getAsLong();
    }

    /** {@code inFlight} requests are in flight now. */
    public synchronized void record(int inFlight) {
        roll();
        current = inFlight;
        windowMax = Math.max(windowMax, inFlight);
    }

    /** The peak of the last complete second (the number in flight now after a quiet second). */
    public synchronized int read() {
        roll();
        return lastWindowMax;
    }

    private void roll() {
        long now = nanoClock.getAsLong();
        long elapsed = now - windowStart;
        if (elapsed < WINDOW_NANOS) {
            return;
        }
        lastWindowMax = elapsed < 2 * WINDOW_NANOS ? windowMax : current;
        windowMax = current;
        windowStart = now;
    }
}
