package io.kubelix.runtime.flowcontrol;

import io.kubelix.runtime.metrics.FlowControlMetrics;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One priority level's seats and queues (kube's fair-queuing QueueSet). A request of a Limited
 * level is dealt a hand of {@code handSize} queues by shuffle sharding its flow, joins the shortest
 * of them (refused {@code queue-full} when that one holds {@code queueLengthLimit}), and waits
 * until a seat is free and its queue's turn comes, at most the wait limit ({@code time-out}). A
 * level of the {@code Reject} type has no queues: no free seat is {@code concurrency-limit}. An
 * Exempt level never queues.
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
    public static final String CANCELLED = "cancelled";

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
        final Instant arrived = Instant.now();
        Queue queue;
        boolean dispatched;

        Waiter(String flowSchema, String distinguisher, RequestDigest digest) {
            this.flowSchema = flowSchema;
            this.distinguisher = distinguisher;
            this.digest = digest;
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
            synchronized (QueueSet.this) {
                if (released) {
                    return;
                }
                released = true;
                executing--;
                if (waiter.queue != null) {
                    waiter.queue.executing--;
                }
                dispatchAsMuchAsPossible();
            }
            metrics.executing(waiter.flowSchema, priorityLevel, -1);
        }
    }

    /** The outcome of {@link #acquire}: a seat, or the reason of a refusal. */
    public record Outcome(Seat seat, String rejection) {
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
    synchronized void configure(int concurrencyLimit, int queueCount, int handSize, int queueLengthLimit) {
        this.concurrencyLimit = concurrencyLimit;
        this.queueLengthLimit = queueLengthLimit;
        if (queueCount != queues.length || dealer == null && queueCount > 0) {
            List<Waiter> waiting = new ArrayList<>();
            for (Queue q : queues) {
                waiting.addAll(q.waiting);
            }
            queues = new Queue[queueCount];
            for (int i = 0; i < queueCount; i++) {
                queues[i] = new Queue(i);
            }
            dealer = queueCount == 0 ? null : new Dealer(queueCount, Math.min(Math.max(handSize, 1), queueCount));
            for (Waiter w : waiting) {
                w.queue = queueCount == 0 ? null : shortestOfHand(Dealer.flowHash(w.flowSchema, w.distinguisher));
                if (w.queue != null) {
                    w.queue.waiting.add(w);
                }
            }
        } else if (queueCount > 0) {
            dealer = new Dealer(queueCount, Math.min(Math.max(handSize, 1), queueCount));
        }
        dispatchAsMuchAsPossible();
        notifyAll();
    }

    public String priorityLevel() {
        return priorityLevel;
    }

    public boolean exempt() {
        return exempt;
    }

    /**
     * Waits for a seat for a request of this flow, at most {@code waitLimit}; an interrupted wait
     * is {@code cancelled}.
     */
    public Outcome acquire(String flowSchema, String distinguisher, RequestDigest digest, Duration waitLimit) {
        Waiter w = new Waiter(flowSchema, distinguisher, digest);
        long begin = System.nanoTime();
        String rejection;
        synchronized (this) {
            rejection = enqueue(w);
            if (rejection == null && !w.dispatched) {
                metrics.inQueue(flowSchema, priorityLevel, 1);
                rejection = await(w, begin + waitLimit.toNanos());
                metrics.inQueue(flowSchema, priorityLevel, -1);
            }
            if (rejection != null) {
                rejectedCount++;
                if (rejection.equals(TIME_OUT)) {
                    timedOutCount++;
                } else if (rejection.equals(CANCELLED)) {
                    cancelledCount++;
                }
            } else {
                dispatchedCount++;
            }
        }
        double waited = (System.nanoTime() - begin) / 1e9;
        if (rejection != null) {
            metrics.waited(flowSchema, priorityLevel, false, waited);
            metrics.rejected(flowSchema, priorityLevel, rejection);
            return new Outcome(null, rejection);
        }
        metrics.waited(flowSchema, priorityLevel, true, waited);
        metrics.dispatched(flowSchema, priorityLevel);
        metrics.executing(flowSchema, priorityLevel, 1);
        return new Outcome(new Seat(w), null);
    }

    /** Dispatches the request, queues it, or says why not. Holds the lock. */
    private String enqueue(Waiter w) {
        if (exempt) {
            executing++;
            w.dispatched = true;
            return null;
        }
        if (queues.length == 0) {
            if (executing >= concurrencyLimit) {
                return CONCURRENCY_LIMIT;
            }
            executing++;
            w.dispatched = true;
            return null;
        }
        Queue q = shortestOfHand(Dealer.flowHash(w.flowSchema, w.distinguisher));
        if (q.waiting.size() >= queueLengthLimit) {
            return QUEUE_FULL;
        }
        w.queue = q;
        q.waiting.add(w);
        dispatchAsMuchAsPossible();
        return null;
    }

    private String await(Waiter w, long deadline) {
        try {
            while (!w.dispatched) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return leave(w, TIME_OUT);
                }
                wait(Math.max(1, left / 1_000_000));
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return leave(w, CANCELLED);
        }
    }

    /** Takes a waiter that was not dispatched out of its queue. */
    private String leave(Waiter w, String reason) {
        if (w.queue != null) {
            w.queue.waiting.remove(w);
        }
        return reason;
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

    /** Gives free seats to waiting requests, a queue at a time. Holds the lock. */
    private void dispatchAsMuchAsPossible() {
        boolean any = false;
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
            w.dispatched = true;
            next.executing++;
            executing++;
            lastDispatched = next.index;
            any = true;
        }
        if (any) {
            notifyAll();
        }
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

    synchronized int concurrencyLimit() {
        return concurrencyLimit;
    }
}
