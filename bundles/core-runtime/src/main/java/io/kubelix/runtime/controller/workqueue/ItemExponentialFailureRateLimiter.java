package io.kubelix.runtime.controller.workqueue;

import io.kubelix.api.informer.RateLimiter;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * client-go's {@code ItemExponentialFailureRateLimiter}: an item's n-th failure since it was last
 * forgotten waits {@code base * 2^n}, at most {@code max}.
 */
public final class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
    private final Duration base;
    private final Duration max;
    private final Map<T, Integer> failures = new HashMap<>();

    public ItemExponentialFailureRateLimiter(Duration base, Duration max) {
        this.base = base;
        this.max = max;
    }

    @Override
    public synchronized Duration when(T item) {
        int n = failures.getOrDefault(item, 0);
        failures.put(item, n + 1);
        // 2^n overflows long nanoseconds from n = 63 on; by then the cap has long applied.
        if (n >= 62) {
            return max;
        }
        double nanos = base.toNanos() * Math.pow(2, n);
        return nanos >= max.toNanos() ? max : Duration.ofNanos((long) nanos);
    }

    @Override
    public synchronized void forget(T item) {
        failures.remove(item);
    }

    @Override
    public synchronized int numRequeues(T item) {
        return failures.getOrDefault(item, 0);
    }
}
