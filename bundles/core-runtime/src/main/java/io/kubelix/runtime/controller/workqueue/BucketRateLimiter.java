package io.kubelix.runtime.controller.workqueue;

import io.kubelix.api.informer.RateLimiter;

import java.time.Duration;

/**
 * client-go's {@code BucketRateLimiter} (golang.org/x/time/rate's token bucket): {@code burst} adds
 * go through at once, then {@code qps} per second; each {@link #when} reserves a token and waits
 * for the time until it is there. It tracks no item, so {@link #forget} and {@link #numRequeues}
 * do nothing.
 */
public final class BucketRateLimiter<T> implements RateLimiter<T> {
    private final double qps;
    private final double burst;
    private final Ticker ticker;
    private double tokens;
    private long last;

    public BucketRateLimiter(double qps, int burst, Ticker ticker) {
        this.qps = qps;
        this.burst = burst;
        this.ticker = ticker;
        this.tokens = burst;
        this.last = ticker.nanoTime();
    }

    @Override
    public synchronized Duration when(T item) {
        long now = ticker.nanoTime();
        tokens = Math.min(burst, tokens + (now - last) / 1e9 * qps);
        last = now;
        tokens -= 1;
        return tokens >= 0 ? Duration.ZERO : Duration.ofNanos((long) Math.ceil(-tokens / qps * 1e9));
    }

    @Override
    public void forget(T item) {
    }

    @Override
    public int numRequeues(T item) {
        return 0;
    }
}
