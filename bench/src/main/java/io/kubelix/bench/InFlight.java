package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Requests 0..n-1 sent with a fixed number in flight: each slot sends its next request when the last
 * is answered, so the rate is as fast as the server answers. Latency goes to a histogram; a request
 * that fails or answers false counts as failed.
 */
final class InFlight {
    private InFlight() {
    }

    /** Sends them all and returns when the last is answered. */
    static void run(int n, int slots, IntFunction<CompletableFuture<Boolean>> request, Histogram latency,
                    AtomicInteger failed) throws Exception {
        AtomicInteger next = new AtomicInteger();
        CompletableFuture<?>[] done = new CompletableFuture<?>[slots];
        for (int s = 0; s < slots; s++) {
            CompletableFuture<Void> d = new CompletableFuture<>();
            done[s] = d;
            sendNext(n, request, next, latency, failed, d);
        }
        CompletableFuture.allOf(done).get(30, TimeUnit.MINUTES);
    }

    private static void sendNext(int n, IntFunction<CompletableFuture<Boolean>> request, AtomicInteger next,
                                 Histogram latency, AtomicInteger failed, CompletableFuture<Void> done) {
        int i = next.getAndIncrement();
        if (i >= n) {
            done.complete(null);
            return;
        }
        long t0 = System.nanoTime();
        request.apply(i).whenComplete((ok, t) -> {
            synchronized (latency) {
                latency.recordValue(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t0));
            }
            if (t != null || !Boolean.TRUE.equals(ok)) {
                failed.incrementAndGet();
            }
            sendNext(n, request, next, latency, failed, done);
        });
    }
}
