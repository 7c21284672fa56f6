package io.kubelix.runtime.flowcontrol;

import io.kubelix.runtime.metrics.FlowControlMetrics;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * One priority level's seats and queues (kube's fair-queuing QueueSet). A request of a Limited
 * level is dealt a hand of {@code handSize} queues by shuffle sharding its flow, joins the shortest
 * of them (refused {@code queue-full} when that one holds {@code queueLengthLimit}), and waits
 * until a seat is free and its queue's turn comes, at most the wait limit ({@code time-out}). A
 * level of the {@code Reject} type has no queues: no free seat is {@code concurrency-limit}. An
 * Exempt level never queues. A waiting request holds no thread: it is resumed on its executor.
 *
 * <p>Simplifications, said here: every request takes one seat (kube's work estimator gives large
 * LISTs more), and the turn goes to the waiting queue with the fewest requests executing, ties
 * round-robin, where kube orders queues by virtual finish time; with equal seats and no estimate of
 * durations both share seats evenly between active flows.
 */
public final class QueueSet {
    /** Why a request was refused, as kube's {@code reason} label says it. */
    public static final String QUEUE_FULL = "queue-full";
    public static final String CONCURRENCY_LIMIT = "concurrency-limit";
    public static final String TIME_OUT = "time-out";

    /** Runs a task after a delay; returns what cancels it. */
    @FunctionalInterface
    public interface Timer {
        Runnable schedule(Runnable task, Duration delay);
    }

    private final String priorityLevel;
    private final boolean exempt;
    private final FlowControlMetrics metrics;
    /** Guarded by this. */
    private int concurrencyLimit;
    private int queueLengthLimit;
    private Dealer dealer;
    private Queue[] queues = new Queue[0];
    private int executing;
    private int lastDispatched = -1;
    private long dispatchedCount;
    private long rejectedCount;
    private long timedOutCount;
    private long cancelledCount;

    /** One queue of waiting requests. */
    private static final class Queue {
        final int index;
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
        int executing;

        Queue(int index) {
            this.index = index;
        }
    }

    /** A request waiting for, or holding, a seat. */
    private static final class Waiter {
        final String flowSchema;
        final String distinguisher;
        final RequestDigest digest;
        final Consumer<Outcome> later;
        final Executor executor;
        final Instant arrived = Instant.now();
        final long arrivedNanos = System.nanoTime();
        Queue queue;
        /** Set once it waits; a request dispatched before that has nothing to cancel (its time-out finds it gone). */
        volatile Runnable cancelTimeout = () -> { };

        Waiter(String flowSchema, String distinguisher, RequestDigest digest, Consumer<Outcome> later, Executor executor) {
            this.flowSchema = flowSchema;
            this.distinguisher = distinguisher;
            this.digest = digest;
            this.later = later;
            this.executor = executor;
        }
    }

    /** A seat held: {@link #release()} it once the request is done (again is a no-op). */
    public final class Seat {
        private final Waiter waiter;
        private boolean released;

        private Seat(Waiter waiter) {
            this.waiter = waiter;
        }

        public void release() {
            List<Waiter> dispatched;
            synchronized (QueueSet.this) {
                if (released) {
                    return;
                }
                released = true;
                executing--;
                if (waiter.queue != null) {
                    waiter.queue.executing--;
                }
                dispatched = dispatchAsMuchAsPossible();
            }
            metrics.executing(waiter.flowSchema, priorityLevel, -1);
            resume(dispatched);
        }
    }

    /**
     * The outcome of {@link #acquire}: a seat, the reason of a refusal, or, for a request that waits
     * in a queue, what {@link #cancel}s it.
     */
    public record Outcome(Seat seat, String rejection, Waiting waiting) {
        Outcome(Seat seat, String rejection) {
            this(seat, rejection, null);
        }

        public boolean queued() {
            return waiting != null;
        }
    }

    /** A request waiting in a queue, as {@link #cancel} knows it. */
    public static final class Waiting {
        private final Waiter waiter;

        private Waiting(Waiter waiter) {
            this.waiter = waiter;
        }
    }

    QueueSet(String priorityLevel, boolean exempt, FlowControlMetrics metrics) {
        this.priorityLevel = priorityLevel;
        this.exempt = exempt;
        this.metrics = metrics;
    }

    /**
     * Takes the level's new limits; requests waiting in queues that no longer exist are dealt again
     * into the new ones.
     *
     * @param queueCount 0 for the Reject type
     */
    void configure(int concurrencyLimit, int queueCount, int handSize, int queueLengthLimit) {
        List<Waiter> dispatched;
        List<Waiter> refused = new ArrayList<>();
        synchronized (this) {
            this.concurrencyLimit = concurrencyLimit;
            this.queueLengthLimit = queueLengthLimit;
            Dealer newDealer = queueCount == 0 ? null
                    : new Dealer(queueCount, Math.min(Math.max(handSize, 1), queueCount));
            if (queueCount != queues.length) {
                List<Waiter> waiting = new ArrayList<>();
                for (Queue q : queues) {
                    waiting.addAll(q.waiting);
                }
                queues = new Queue[queueCount];
                for (int i = 0; i < queueCount; i++) {
                    queues[i] = new Queue(i);
                }
                dealer = newDealer;
                for (Waiter w : waiting) {
                    if (queueCount == 0) {
                        // The level became Reject: what waited is refused as it would be now.
                        w.queue = null;
                        rejectedCount++;
                        refused.add(w);
                    } else {
                        w.queue = shortestOfHand(Dealer.flowHash(w.flowSchema, w.distinguisher));
                        w.queue.waiting.add(w);
                    }
                }
            } else {
                dealer = newDealer;
            }
            dispatched = dispatchAsMuchAsPossible();
        }
        for (Waiter w : refused) {
            w.cancelTimeout.run();
            metrics.inQueue(w.flowSchema, priorityLevel, -1);
            w.executor.execute(() -> w.later.accept(refused(w, CONCURRENCY_LIMIT)));
        }
        resume(dispatched);
    }

    public String priorityLevel() {
        return priorityLevel;
    }

    public boolean exempt() {
        return exempt;
    }

    /**
     * Asks for a seat for a request of this flow. Returns a seat or a refusal when no waiting is
     * needed; otherwise a {@link Outcome#queued() queued} outcome, and {@code later} is given the
     * seat or refusal on {@code executor} once the request is dispatched or refused, at most
     * {@code waitLimit} later, unless it is {@link #cancel}led first.
     */
    public Outcome acquire(String flowSchema, String distinguisher, RequestDigest digest, Duration waitLimit,
                           Timer timer, Executor executor, Consumer<Outcome> later) {
        Waiter w = new Waiter(flowSchema, distinguisher, digest, later, executor);
        List<Waiter> dispatched = new ArrayList<>();
        String rejection;
        boolean queued;
        synchronized (this) {
            rejection = enqueue(w, dispatched);
            queued = rejection == null && w.queue != null && !dispatched.remove(w);
        }
        resume(dispatched);
        if (rejection != null) {
            return refused(w, rejection);
        }
        if (!queued) {
            return started(w);
        }
        metrics.inQueue(flowSchema, priorityLevel, 1);
        w.cancelTimeout = timer.schedule(() -> timeOut(w), waitLimit);
        return new Outcome(null, null, new Waiting(w));
    }

    /**
     * Takes a waiting request whose client went away out of its queue, so it is never dispatched;
     * counted as kube counts it, a rejection for {@code time-out}. Its {@code later} is not called.
     * Returns false when it no longer waited (dispatched, refused or cancelled already).
     */
    public boolean cancel(Waiting waiting) {
        Waiter w = waiting.waiter;
        synchronized (this) {
            if (w.queue == null || !w.queue.waiting.remove(w)) {
                return false;
            }
            rejectedCount++;
            cancelledCount++;
        }
        w.cancelTimeout.run();
        metrics.inQueue(w.flowSchema, priorityLevel, -1);
        refused(w, TIME_OUT);
        return true;
    }

    /**
     * Dispatches the request, queues it, or says why not; {@code dispatched} gets the requests
     * (this one included) given a seat from the queues. Holds the lock.
     */
    private String enqueue(Waiter w, List<Waiter> dispatched) {
        if (exempt) {
            executing++;
            dispatchedCount++;
            return null;
        }
        if (queues.length == 0) {
            if (executing >= concurrencyLimit) {
                rejectedCount++;
                return CONCURRENCY_LIMIT;
            }
            executing++;
            dispatchedCount++;
            return null;
        }
        Queue q = shortestOfHand(Dealer.flowHash(w.flowSchema, w.distinguisher));
        if (q.waiting.size() >= queueLengthLimit) {
            rejectedCount++;
            return QUEUE_FULL;
        }
        w.queue = q;
        q.waiting.add(w);
        dispatched.addAll(dispatchAsMuchAsPossible());
        return null;
    }

    private void timeOut(Waiter w) {
        synchronized (this) {
            if (w.queue == null || !w.queue.waiting.remove(w)) {
                return;
            }
            rejectedCount++;
            timedOutCount++;
        }
        metrics.inQueue(w.flowSchema, priorityLevel, -1);
        w.executor.execute(() -> w.later.accept(refused(w, TIME_OUT)));
    }

    /** A refusal, with its metrics. */
    private Outcome refused(Waiter w, String rejection) {
        metrics.waited(w.flowSchema, priorityLevel, false, (System.nanoTime() - w.arrivedNanos) / 1e9);
        metrics.rejected(w.flowSchema, priorityLevel, rejection);
        return new Outcome(null, rejection);
    }

    /** A seat, with its metrics. */
    private Outcome started(Waiter w) {
        metrics.waited(w.flowSchema, priorityLevel, true, (System.nanoTime() - w.arrivedNanos) / 1e9);
        metrics.dispatched(w.flowSchema, priorityLevel);
        metrics.executing(w.flowSchema, priorityLevel, 1);
        return new Outcome(new Seat(w), null);
    }

    /** Resumes requests that were waiting and are dispatched now, each on its executor. Called without the lock. */
    private void resume(List<Waiter> dispatched) {
        for (Waiter w : dispatched) {
            w.cancelTimeout.run();
            metrics.inQueue(w.flowSchema, priorityLevel, -1);
            w.executor.execute(() -> w.later.accept(started(w)));
        }
    }

    /** Of the flow's hand, the queue with the fewest requests waiting and executing (kube's shuffleShardLocked). */
    private Queue shortestOfHand(long hash) {
        Queue best = null;
        for (int i : dealer.deal(hash)) {
            Queue q = queues[i];
            if (best == null || q.waiting.size() + q.executing < best.waiting.size() + best.executing) {
                best = q;
            }
        }
        return best;
    }

    /** Gives free seats to waiting requests, a queue at a time; returns those dispatched. Holds the lock. */
    private List<Waiter> dispatchAsMuchAsPossible() {
        List<Waiter> dispatched = new ArrayList<>();
        while (executing < concurrencyLimit) {
            Queue next = null;
            for (int k = 1; k <= queues.length; k++) {
                Queue q = queues[Math.floorMod(lastDispatched + k, queues.length)];
                if (!q.waiting.isEmpty() && (next == null || q.executing < next.executing)) {
                    next = q;
                }
            }
            if (next == null) {
                break;
            }
            Waiter w = next.waiting.poll();
            next.executing++;
            executing++;
            dispatchedCount++;
            lastDispatched = next.index;
            dispatched.add(w);
        }
        return dispatched;
    }

    /** A row of {@code dump_priority_levels}. */
    record LevelState(String name, boolean exempt, int activeQueues, int waiting, int executing, long dispatched,
                      long rejected, long timedOut, long cancelled) {
    }

    /** A row of {@code dump_queues}. */
    record QueueState(int index, int waiting, int executing) {
    }

    /** A row of {@code dump_requests}. */
    record WaitingRequest(String flowSchema, int queue, int indexInQueue, String distinguisher, Instant arrived,
                          RequestDigest digest) {
    }

    synchronized LevelState state() {
        int active = 0;
        int waiting = 0;
        for (Queue q : queues) {
            if (!q.waiting.isEmpty() || q.executing > 0) {
                active++;
            }
            waiting += q.waiting.size();
        }
        return new LevelState(priorityLevel, exempt, active, waiting, executing, dispatchedCount, rejectedCount,
                timedOutCount, cancelledCount);
    }

    synchronized List<QueueState> queues() {
        List<QueueState> out = new ArrayList<>();
        for (Queue q : queues) {
            out.add(new QueueState(q.index, q.waiting.size(), q.executing));
        }
        return out;
    }

    synchronized List<WaitingRequest> waiting() {
        List<WaitingRequest> out = new ArrayList<>();
        for (Queue q : queues) {
            int i = 0;
            for (Iterator<Waiter> it = q.waiting.iterator(); it.hasNext(); i++) {
                Waiter w = it.next();
                out.add(new WaitingRequest(w.flowSchema, q.index, i, w.distinguisher, w.arrived, w.digest));
            }
        }
        return out;
    }
}
