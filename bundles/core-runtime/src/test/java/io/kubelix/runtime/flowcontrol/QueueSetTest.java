package io.kubelix.runtime.flowcontrol;

import io.kubelix.runtime.metrics.FlowControlMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueueSetTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final QueueSet level = new QueueSet("workload-low", false, new FlowControlMetrics(new PrometheusRegistry()));

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private QueueSet.Outcome acquire(String flow, Duration wait) {
        return acquire(level, flow, wait);
    }

    /** Acquires as a request does, waiting on this thread for the outcome of a queued one. */
    static QueueSet.Outcome acquire(QueueSet queues, String flow, Duration wait) {
        CompletableFuture<QueueSet.Outcome> outcome = new CompletableFuture<>();
        QueueSet.Outcome now = queues.acquire("fs", flow, null, wait, (task, delay) -> {
            CompletableFuture<Void> f = CompletableFuture.runAsync(task,
                    CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS));
            return () -> f.cancel(false);
        }, Runnable::run, outcome::complete);
        return !now.queued() ? now : outcome.join();
    }

    private void awaitWaiting(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (level.state().waiting() != n) {
            assertTrue(System.nanoTime() < deadline, "waiting " + level.state().waiting() + ", not " + n);
            Thread.sleep(5);
        }
    }

    @Test
    void twoFlowsShareTheSeatsWhateverTheirBacklog() throws Exception {
        // A hand of one queue: each flow keeps to its queue (the two hashes deal different ones).
        level.configure(1, 64, 1, 50);
        assertTrue(new Dealer(64, 1).deal(Dealer.flowHash("fs", "busy"))[0]
                != new Dealer(64, 1).deal(Dealer.flowHash("fs", "quiet"))[0]);
        QueueSet.Seat first = acquire("busy", LONG).seat();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Future<?>> all = new ArrayList<>();
        // The busy flow queues 6 requests before the quiet one queues 2.
        for (int i = 0; i < 6; i++) {
            all.add(serve("busy", order));
            awaitWaiting(i + 1);
        }
        for (int i = 0; i < 2; i++) {
            all.add(serve("quiet", order));
            awaitWaiting(7 + i);
        }
        first.release();
        for (Future<?> f : all) {
            f.get(10, TimeUnit.SECONDS);
        }
        // With one seat the flows take turns: the quiet flow is done within its first four turns, not after six.
        assertTrue(order.subList(0, 4).stream().filter("quiet"::equals).count() == 2, order.toString());
        assertEquals(0, level.state().executing());
    }

    private Future<?> serve(String flow, List<String> order) {
        return threads.submit(() -> {
            QueueSet.Seat seat = acquire(flow, LONG).seat();
            order.add(flow);
            seat.release();
            return null;
        });
    }

    @Test
    void aFullQueueRefusesAndAWaitTooLongTimesOut() throws Exception {
        level.configure(1, 1, 1, 3);
        QueueSet.Seat held = acquire("a", LONG).seat();
        Future<QueueSet.Outcome> w1 = threads.submit(() -> acquire("a", LONG));
        awaitWaiting(1);
        Future<QueueSet.Outcome> w2 = threads.submit(() -> acquire("b", LONG));
        awaitWaiting(2);
        assertEquals(QueueSet.TIME_OUT, acquire("d", Duration.ofMillis(1)).rejection());
        assertEquals(2, level.state().waiting(), "the timed-out request left its queue");
        Future<QueueSet.Outcome> w3 = threads.submit(() -> acquire("e", LONG));
        awaitWaiting(3);
        assertEquals(QueueSet.QUEUE_FULL, acquire("c", LONG).rejection());

        held.release();
        QueueSet.Seat s1 = w1.get(10, TimeUnit.SECONDS).seat();
        assertNotNull(s1);
        s1.release();
        s1.release();
        w2.get(10, TimeUnit.SECONDS).seat().release();
        w3.get(10, TimeUnit.SECONDS).seat().release();
        QueueSet.LevelState state = level.state();
        assertEquals(0, state.executing());
        assertEquals(4, state.dispatched());
        assertEquals(2, state.rejected());
        assertEquals(1, state.timedOut());
    }

    @Test
    void aCancelledWaiterLeavesItsQueueAndIsNeverDispatched() {
        PrometheusRegistry registry = new PrometheusRegistry();
        QueueSet queues = new QueueSet("workload-low", false, new FlowControlMetrics(registry));
        queues.configure(1, 1, 1, 50);
        QueueSet.Seat held = acquire(queues, "a", LONG).seat();
        List<QueueSet.Outcome> later = new ArrayList<>();
        List<Runnable> cancelledTimers = new ArrayList<>();
        QueueSet.Outcome gone = queues.acquire("fs", "b", null, LONG, (task, delay) -> () -> cancelledTimers.add(task),
                Runnable::run, later::add);
        QueueSet.Outcome next = queues.acquire("fs", "c", null, LONG, (task, delay) -> () -> { }, Runnable::run,
                later::add);
        assertTrue(gone.queued());
        assertEquals(2, queues.state().waiting());

        assertTrue(queues.cancel(gone.waiting()));
        assertEquals(false, queues.cancel(gone.waiting()), "once");
        assertEquals(1, cancelledTimers.size(), "its wait limit's timer was cancelled");
        assertEquals(1, queues.state().waiting());
        held.release();
        assertEquals(1, later.size(), "only the request still waiting was dispatched");
        assertNotNull(later.get(0).seat());
        assertEquals(false, queues.cancel(next.waiting()), "a dispatched request is not cancelled");
        later.get(0).seat().release();

        QueueSet.LevelState state = queues.state();
        assertEquals(1, state.cancelled());
        assertEquals(1, state.rejected());
        assertEquals(2, state.dispatched());
        assertEquals(0, state.executing());
        assertEquals(1.0, registry.scrape().stream()
                .filter(m -> m.getMetadata().getName().equals("apiserver_flowcontrol_rejected_requests"))
                .flatMap(m -> ((io.prometheus.metrics.model.snapshots.CounterSnapshot) m).getDataPoints().stream())
                .filter(d -> d.getLabels().get("reason").equals(QueueSet.TIME_OUT))
                .mapToDouble(io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum(), "kube counts a cancelled waiter as rejected for time-out");
    }

    @Test
    void aRejectLevelHasNoQueuesAndAnExemptOneNoLimit() {
        level.configure(1, 0, 0, 0);
        QueueSet.Seat held = acquire("a", LONG).seat();
        assertEquals(QueueSet.CONCURRENCY_LIMIT, acquire("b", LONG).rejection());
        held.release();
        assertNull(acquire("b", LONG).rejection());

        QueueSet exempt = new QueueSet("exempt", true, new FlowControlMetrics(new PrometheusRegistry()));
        exempt.configure(0, 0, 0, 0);
        for (int i = 0; i < 100; i++) {
            assertNotNull(acquire(exempt, "", Duration.ZERO).seat());
        }
        assertEquals(100, exempt.state().executing());
    }
}
