package io.kubelix.runtime.controller.workqueue;

import io.kubelix.api.informer.RateLimiter;

import java.time.Duration;
import java.util.List;

/** client-go's {@code MaxOfRateLimiter}: the longest wait of its limiters; each is told every call. */
public final class MaxOfRateLimiter<T> implements RateLimiter<T> {
    private final List<RateLimiter<T>> limiters;

    @SafeVarargs
    public MaxOfRateLimiter(RateLimiter<T>... limiters) {
        this.limiters = List.of(limiters);
    }

    /**
     * client-go's {@code DefaultControllerRateLimiter}: per item 5 ms doubling up to 1000 s, overall
     * 10 qps with a burst of 100.
     */
    public static <T> RateLimiter<T> defaultControllerRateLimiter(Ticker ticker) {
        return new MaxOfRateLimiter<>(
                new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
                new BucketRateLimiter<>(10, 100, ticker));
    }

    @Override
    public Duration when(T item) {
        Duration longest = Duration.ZERO;
        for (RateLimiter<T> limiter : limiters) {
            Duration d = limiter.when(item);
            if (d.compareTo(longest) > 0) {
                longest = d;
            }
        }
        return longest;
    }

    @Override
    public void forget(T item) {
        limiters.forEach(l -> l.forget(item));
    }

    @Override
    public int numRequeues(T item) {
        int most = 0;
        for (RateLimiter<T> limiter : limiters) {
            most = Math.max(most, limiter.numRequeues(item));
        }
        return most;
    }
}
