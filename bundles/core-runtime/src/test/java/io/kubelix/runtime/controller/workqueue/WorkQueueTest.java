package io.kubelix.runtime.controller.workqueue;

import io.kubelix.api.informer.RateLimiter;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** client-go's workqueue semantics: de-duplication, one worker per item, delays, rate limits, shutdown. */
class WorkQueueTest {
    /** A clock the test moves. */
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Ticker ticker = now::get;

    private WorkQueue<String> queue(RateLimiter<String> limiter) {
        return new WorkQueue<>("test", limiter, ticker);
    }

    private WorkQueue<String> queue() {
        return queue(MaxOfRateLimiter.defaultControllerRateLimiter(ticker));
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void anItemQueuedTwiceIsHandedOutOnce() throws Exception {
        WorkQueue<String> q = queue();
        q.add("a");
        q.add("b");
        q.add("a");
        assertEquals(2, q.len());
        assertEquals("a", q.get());
        assertEquals("b", q.get());
        assertEquals(0, q.len());
    }

    @Test
    void anItemAddedWhileProcessedIsQueuedAgainWhenDoneAndNeverGivenToTwoWorkers() throws Exception {
        WorkQueue<String> q = queue();
        q.add("a");
        assertEquals("a", q.get());
        q.add("a");
        q.add("b");
        // A second worker gets b, not a, which is still being processed.
        assertEquals(1, q.len());
        assertEquals("b", q.get());
        assertEquals(0, q.len());
        q.done("a");
        assertEquals(1, q.len());
        assertEquals("a", q.get());
        q.done("a");
        q.done("b");
        assertEquals(0, q.len());
    }

    @Test
    void workersNeverProcessOneItemAtOnceAndEveryAddIsFollowedByAProcessing() throws Exception {
        WorkQueue<String> q = queue();
        int workers = 4;
        Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        Map<String, AtomicLong> addedAt = new ConcurrentHashMap<>();
        Map<String, AtomicLong> processedFrom = new ConcurrentHashMap<>();
        AtomicLong clock = new AtomicLong();
        AtomicInteger overlaps = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers + 1);
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            futures.add(pool.submit(() -> {
                for (String item = q.get(); item != null; item = q.get()) {
                    if (running.computeIfAbsent(item, k -> new AtomicInteger()).incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    processedFrom.computeIfAbsent(item, k -> new AtomicLong()).set(clock.incrementAndGet());
                    Thread.yield();
                    running.get(item).decrementAndGet();
                    q.done(item);
                }
                return null;
            }));
        }
        for (int i = 0; i < 20_000; i++) {
            String item = "key-" + (i % 7);
            addedAt.computeIfAbsent(item, k -> new AtomicLong()).set(clock.incrementAndGet());
            q.add(item);
        }
        q.shutDownWithDrain();
        for (Future<?> f : futures) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertEquals(0, overlaps.get(), "an item was processed by two workers at once");
        addedAt.forEach((item, at) -> assertTrue(processedFrom.get(item).get() > at.get(),
                item + " was added after its last processing began and never processed again"));
    }

    @Test
    void perItemBackOffDoublesFrom5msTo1000sUntilForgotten() {
        ItemExponentialFailureRateLimiter<String> limiter =
                new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000));
        assertEquals(Duration.ofMillis(5), limiter.when("a"));
        assertEquals(Duration.ofMillis(10), limiter.when("a"));
        assertEquals(Duration.ofMillis(20), limiter.when("a"));
        assertEquals(Duration.ofMillis(5), limiter.when("b"));
        assertEquals(3, limiter.numRequeues("a"));
        for (int i = 0; i < 100; i++) {
            limiter.when("a");
        }
        assertEquals(Duration.ofSeconds(1000), limiter.when("a"));
        limiter.forget("a");
        assertEquals(0, limiter.numRequeues("a"));
        assertEquals(Duration.ofMillis(5), limiter.when("a"));
    }

    @Test
    void theBucketLetsABurstOf100ThroughThen10PerSecond() {
        BucketRateLimiter<String> bucket = new BucketRateLimiter<>(10, 100, ticker);
        for (int i = 0; i < 100; i++) {
            assertEquals(Duration.ZERO, bucket.when("x" + i));
        }
        assertEquals(Duration.ofMillis(100), bucket.when("late"));
        assertEquals(Duration.ofMillis(200), bucket.when("later"));
        advance(Duration.ofSeconds(2));
        // Two seconds refilled 20 tokens, two of which the reservations above had taken.
        for (int i = 0; i < 18; i++) {
            assertEquals(Duration.ZERO, bucket.when("y" + i));
        }
        assertEquals(Duration.ofMillis(100), bucket.when("z"));
    }

    @Test
    void theDefaultControllerRateLimiterWaitsTheLongerOfBackOffAndBucket() {
        RateLimiter<String> limiter = MaxOfRateLimiter.defaultControllerRateLimiter(ticker);
        assertEquals(Duration.ofMillis(5), limiter.when("a"));
        assertEquals(Duration.ofMillis(10), limiter.when("a"));
        for (int i = 0; i < 98; i++) {
            limiter.when("other" + i);
        }
        // The bucket is empty now: a new item waits for a token rather than 5 ms.
        assertEquals(Duration.ofMillis(100), limiter.when("b"));
        assertEquals(2, limiter.numRequeues("a"));
        limiter.forget("a");
        assertEquals(0, limiter.numRequeues("a"));
    }

    @Test
    void aRateLimitedItemIsQueuedOnlyOnceItsBackOffHasPassed() throws Exception {
        WorkQueue<String> q = queue();
        q.add("a");
        assertEquals("a", q.get());
        q.addRateLimited("a");
        q.done("a");
        assertEquals(0, q.len());
        advance(Duration.ofMillis(4));
        assertEquals(0, q.len());
        advance(Duration.ofMillis(1));
        assertEquals(1, q.len());
        assertEquals("a", q.get());
        q.addRateLimited("a");
        q.done("a");
        advance(Duration.ofMillis(9));
        assertEquals(0, q.len());
        advance(Duration.ofMillis(1));
        assertEquals("a", q.get());
        assertEquals(2, q.numRequeues("a"));
        q.forget("a");
        q.done("a");
        assertEquals(0, q.numRequeues("a"));
    }

    @Test
    void anEarlierDelayOfTheSameItemWinsAndItIsQueuedOnce() throws Exception {
        WorkQueue<String> q = queue();
        q.addAfter("a", Duration.ofSeconds(10));
        q.addAfter("a", Duration.ofSeconds(1));
        q.addAfter("a", Duration.ofSeconds(5));
        advance(Duration.ofSeconds(1));
        assertEquals(1, q.len());
        assertEquals("a", q.get());
        q.done("a");
        advance(Duration.ofSeconds(10));
        assertEquals(0, q.len());
    }

    @Test
    void aWaitingWorkerGetsADelayedItemWhenDue() throws Exception {
        WorkQueue<String> q = new WorkQueue<>("test", MaxOfRateLimiter.defaultControllerRateLimiter(Ticker.SYSTEM),
                Ticker.SYSTEM);
        q.addAfter("a", Duration.ofMillis(20));
        assertEquals("a", q.get());
    }

    @Test
    void afterShutDownWorkersGetWhatIsQueuedThenNullAndAddsAreIgnored() throws Exception {
        WorkQueue<String> q = queue();
        q.add("a");
        q.add("b");
        q.addAfter("c", Duration.ofMillis(1));
        q.shutDown();
        q.add("d");
        advance(Duration.ofSeconds(1));
        assertTrue(q.shuttingDown());
        assertEquals("a", q.get());
        assertEquals("b", q.get());
        assertNull(q.get());
        assertNull(q.get());
    }

    @Test
    void shutDownWithDrainWaitsForTheItemsBeingProcessed() throws Exception {
        WorkQueue<String> q = queue();
        q.add("a");
        assertEquals("a", q.get());
        Thread drainer = new Thread(() -> {
            try {
                q.shutDownWithDrain();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        drainer.start();
        while (!q.shuttingDown()) {
            Thread.onSpinWait();
        }
        assertTrue(drainer.isAlive(), "the drain returned while an item was being processed");
        q.done("a");
        drainer.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(drainer.isAlive());
    }
}
