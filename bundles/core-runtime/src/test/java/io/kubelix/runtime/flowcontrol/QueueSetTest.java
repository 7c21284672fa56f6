package io.kubelix.runtime.flowcontrol;

import io.kubelix.runtime.metrics.FlowControlMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queueset on a fake clock: every dispatch, time-out and release happens when the test says. */
class QueueSetTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    private final FakeEventClock clock = new FakeEventClock();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final QueueSet level = new QueueSet("workload-low", false, new FlowControlMetrics(registry), clock);

    /** A request and what became of it. */
    private static final class Req {
        final String flow;
        final WorkEstimate estimate;
        QueueSet.Outcome now;
        QueueSet.Outcome later;

        Req(String flow, WorkEstimate estimate) {
            this.flow = flow;
            this.estimate = estimate;
        }

        QueueSet.Seat seat() {
            return now.queued() ? later == null ? null : later.seat() : now.seat();
        }

        String rejection() {
            return now.queued() ? later == null ? null : later.rejection() : now.rejection();
        }
    }

    private Req acquire(String flow, WorkEstimate estimate, Duration wait) {
        Req r = new Req(flow, estimate);
        r.now = level.acquire("fs", flow, null, estimate, wait, Runnable::run, o -> r.later = o);
        return r;
    }

    private Req acquire(String flow) {
        return acquire(flow, WorkEstimate.ONE_SEAT, LONG);
    }

    private static WorkEstimate seats(int n) {
        return new WorkEstimate(n, 0, Duration.ZERO);
    }

    @Test
    void twoFlowsShareTheSeatsWhateverTheirBacklog() {
        // A hand of one queue: each flow keeps to its queue (the two hashes deal different ones).
        level.configure(1, 64, 1, 50);
        assertTrue(new Dealer(64, 1).deal(Dealer.flowHash("fs", "busy"))[0]
                != new Dealer(64, 1).deal(Dealer.flowHash("fs", "quiet"))[0]);
        Req first = acquire("busy");
        List<Req> all = new ArrayList<>();
        // The busy flow queues 6 requests before the quiet one queues 2.
        for (int i = 0; i < 6; i++) {
            all.add(acquire("busy"));
        }
        for (int i = 0; i < 2; i++) {
            all.add(acquire("quiet"));
        }
        assertEquals(8, level.state().waiting());
        List<String> order = runToCompletion(List.of(first), all, Duration.ofMillis(3));
        // With one seat the flows take turns: the quiet flow is done within its first four turns, not after six.
        assertEquals(2, order.subList(0, 4).stream().filter("quiet"::equals).count(), order.toString());
        assertEquals(0, level.state().executing());
    }

    @Test
    void flowsShareSeatSecondsNotRequests() {
        // Flow "wide" asks 2 seats a request and "narrow" 1: each gets half the seat-seconds, so
        // "narrow" is served twice as many requests.
        level.configure(2, 64, 1, 50);
        List<Req> all = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            all.add(acquire("wide", seats(2), LONG));
            all.add(acquire("narrow", seats(1), LONG));
            all.add(acquire("narrow", seats(1), LONG));
        }
        List<Req> started = all.stream().filter(r -> r.seat() != null).toList();
        List<String> order = runToCompletion(started, all, Duration.ofMillis(3));
        List<String> firstHalf = order.subList(0, 30);
        long narrow = firstHalf.stream().filter("narrow"::equals).count();
        long wide = firstHalf.stream().filter("wide"::equals).count();
        assertTrue(Math.abs(narrow - 2 * wide) <= 2, "narrow " + narrow + ", wide " + wide + ": " + order);
    }

    /**
     * Serves the requests as a server would: each started one runs {@code service} on the fake
     * clock and then releases its seats; returns the flows in the order they were served.
     */
    private List<String> runToCompletion(List<Req> started, List<Req> all, Duration service) {
        List<String> order = new ArrayList<>();
        java.util.Map<Req, Long> running = new java.util.LinkedHashMap<>();
        started.forEach(r -> running.put(r, clock.nanoTime()));
        java.util.Set<Req> done = new java.util.HashSet<>();
        while (!running.isEmpty()) {
            Req r = running.keySet().stream().min(java.util.Comparator.comparingLong(running::get)).orElseThrow();
            long end = running.remove(r) + service.toNanos();
            clock.advance(Duration.ofNanos(Math.max(0, end - clock.nanoTime())));
            order.add(r.flow);
            r.seat().release();
            done.add(r);
            for (Req other : all) {
                if (!done.contains(other) && !running.containsKey(other) && other.seat() != null) {
                    running.put(other, clock.nanoTime());
                }
            }
        }
        return order;
    }

    @Test
    void aFullQueueRefusesAndAWaitTooLongTimesOut() {
        level.configure(1, 1, 1, 3);
        Req held = acquire("a");
        Req w1 = acquire("a");
        Req w2 = acquire("b");
        Req d = acquire("d", WorkEstimate.ONE_SEAT, Duration.ofMillis(1));
        assertTrue(d.now.queued());
        clock.advance(Duration.ofMillis(1));
        assertEquals(QueueSet.TIME_OUT, d.rejection());
        assertEquals(2, level.state().waiting(), "the timed-out request left its queue");
        Req w3 = acquire("e");
        Req refused = acquire("c");
        assertEquals(QueueSet.QUEUE_FULL, refused.rejection());

        held.seat().release();
        QueueSet.Seat s1 = w1.seat();
        assertNotNull(s1);
        s1.release();
        s1.release();
        w2.seat().release();
        w3.seat().release();
        QueueSet.LevelState state = level.state();
        assertEquals(0, state.executing());
        assertEquals(4, state.dispatched());
        assertEquals(2, state.rejected());
        assertEquals(1, state.timedOut());
        assertEquals(0, clock.pending(), "every wait limit's timer is gone");
    }

    @Test
    void aCancelledWaiterLeavesItsQueueAndIsNeverDispatched() {
        level.configure(1, 1, 1, 50);
        Req held = acquire("a");
        Req gone = acquire("b");
        Req next = acquire("c");
        assertTrue(gone.now.queued());
        assertEquals(2, level.state().waiting());

        assertTrue(level.cancel(gone.now.waiting()));
        assertFalse(level.cancel(gone.now.waiting()), "once");
        assertEquals(1, clock.pending(), "its wait limit's timer was cancelled");
        assertEquals(1, level.state().waiting());
        held.seat().release();
        assertNull(gone.later, "a cancelled request hears nothing more");
        assertNotNull(next.seat(), "the request still waiting was dispatched");
        assertFalse(level.cancel(next.now.waiting()), "a dispatched request is not cancelled");
        next.seat().release();

        QueueSet.LevelState state = level.state();
        assertEquals(1, state.cancelled());
        assertEquals(1, state.rejected());
        assertEquals(2, state.dispatched());
        assertEquals(0, state.executing());
        assertEquals(1.0, registry.scrape().stream()
                .filter(m -> m.getMetadata().getName().equals("apiserver_flowcontrol_rejected_requests"))
                .flatMap(m -> ((CounterSnapshot) m).getDataPoints().stream())
                .filter(p -> p.getLabels().get("reason").equals(QueueSet.TIME_OUT))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum(),
                "kube counts a cancelled waiter as rejected for time-out");
    }

    @Test
    void aWideRequestWaitsForAllItsSeats() {
        level.configure(10, 64, 1, 50);
        List<Req> singles = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            singles.add(acquire("small"));
        }
        Req wide = acquire("list", seats(10), LONG);
        assertTrue(wide.now.queued(), "5 seats are free, it asks for 10");
        assertEquals(5, level.state().seatsInUse());
        Req more = acquire("other");
        assertNotNull(more.seat(), "a narrow request of another queue, whose virtual finish comes first, still runs");
        for (Req r : singles) {
            r.seat().release();
        }
        assertNull(wide.later, "one seat is still taken");
        more.seat().release();
        assertNotNull(wide.seat());
        assertEquals(10, level.state().seatsInUse());
        Req after = acquire("small");
        assertTrue(after.now.queued(), "nothing is free while the LIST runs");
        wide.seat().release();
        assertNotNull(after.seat());
    }

    @Test
    void aWriteWithWatchersKeepsItsFinalSeatsForItsAdditionalLatency() {
        level.configure(4, 64, 1, 50);
        Req write = acquire("w", new WorkEstimate(1, 3, Duration.ofMillis(5)), LONG);
        assertEquals(3, level.state().seatsInUse(), "its widest phase is reserved from the start");
        Req other = acquire("x", seats(2), LONG);
        assertTrue(other.now.queued());
        write.seat().release();
        assertEquals(0, level.state().executing(), "the client has its answer");
        assertEquals(3, level.state().seatsInUse(), "but the events still take their seats");
        assertNull(other.later);
        clock.advance(Duration.ofMillis(5));
        assertNotNull(other.seat());
        assertEquals(2, level.state().seatsInUse());
    }

    @Test
    void aRejectLevelHasNoQueuesAndAnExemptOneNoLimit() {
        level.configure(2, 0, 0, 0);
        Req held = acquire("a");
        assertEquals(QueueSet.CONCURRENCY_LIMIT, acquire("b", seats(2), LONG).rejection(), "2 seats, 1 free");
        assertNotNull(acquire("b").seat());
        held.seat().release();

        QueueSet exempt = new QueueSet("exempt", true, new FlowControlMetrics(new PrometheusRegistry()), clock);
        exempt.configure(0, 0, 0, 0);
        for (int i = 0; i < 100; i++) {
            assertNotNull(exempt.acquire("fs", "", null, seats(10), Duration.ZERO, Runnable::run, o -> { }).seat());
        }
        assertEquals(100, exempt.state().executing());
    }

    @Test
    void fewerQueuesTakeNoNewRequestsButDrainTheirOwn() {
        level.configure(1, 8, 1, 50);
        Req held = acquire("a");
        List<Req> waiting = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            waiting.add(acquire("flow-" + i));
        }
        java.util.Set<Integer> used = new java.util.HashSet<>();
        level.queues().stream().filter(q -> q.waiting() > 0).forEach(q -> used.add(q.index()));
        assertTrue(used.stream().anyMatch(i -> i >= 2), "20 flows dealt into 8 queues use more than the first two");

        level.configure(1, 2, 1, 50);
        assertEquals(20, level.state().waiting(), "nothing waiting is refused");
        java.util.Map<Integer, Integer> before = new java.util.HashMap<>();
        level.queues().forEach(q -> before.put(q.index(), q.waiting()));
        for (int i = 0; i < 10; i++) {
            waiting.add(acquire("late-" + i));
        }
        int intoFirstTwo = 0;
        for (QueueSet.QueueState q : level.queues()) {
            if (q.index() >= 2) {
                assertEquals(before.get(q.index()), q.waiting(), "queue " + q.index() + " past the count takes no new request");
            } else {
                intoFirstTwo += q.waiting() - before.get(q.index());
            }
        }
        assertEquals(10, intoFirstTwo);

        runToCompletion(List.of(held), waiting, Duration.ofMillis(3));
        assertTrue(waiting.stream().allMatch(r -> r.rejection() == null), "every waiting request was served");
        assertEquals(2, level.queues().size(), "the drained queues past the count are gone");
    }

    @Test
    void aLevelThatBecomesRejectServesWhatItHadQueued() {
        level.configure(1, 4, 1, 50);
        Req held = acquire("a");
        Req queued = acquire("b");
        assertTrue(queued.now.queued());
        level.configure(1, 0, 0, 0);
        assertEquals(QueueSet.CONCURRENCY_LIMIT, acquire("c").rejection(), "new requests meet the Reject type");
        held.seat().release();
        assertNotNull(queued.seat(), "the request queued before the change is served");
        queued.seat().release();
    }

    @Test
    void seatsAreCountedWhileQueuedAndUntilAWriteWithWatchersGivesThemBack() {
        level.configure(4, 64, 1, 50);
        Req held = acquire("a", seats(3), LONG);
        Req write = acquire("b", new WorkEstimate(1, 2, Duration.ofMillis(50)), LONG);
        assertTrue(write.now.queued(), "2 seats asked, 1 free");
        assertEquals(2.0, gauge("apiserver_flowcontrol_current_inqueue_seats"));
        assertEquals(3.0, gauge("apiserver_flowcontrol_current_executing_seats"));
        held.seat().release();
        assertEquals(0.0, gauge("apiserver_flowcontrol_current_inqueue_seats"));
        assertEquals(2.0, gauge("apiserver_flowcontrol_current_executing_seats"));
        write.seat().release();
        assertEquals(0.0, gauge("apiserver_flowcontrol_current_executing_requests"), "it has answered");
        assertEquals(2.0, gauge("apiserver_flowcontrol_current_executing_seats"), "its final seats are still held");
        clock.advance(Duration.ofMillis(50));
        assertEquals(0.0, gauge("apiserver_flowcontrol_current_executing_seats"));
    }

    private double gauge(String name) {
        return registry.scrape().stream()
                .filter(m -> m.getMetadata().getName().equals(name))
                .flatMap(m -> ((GaugeSnapshot) m).getDataPoints().stream())
                .mapToDouble(GaugeSnapshot.GaugeDataPointSnapshot::getValue).sum();
    }
}
