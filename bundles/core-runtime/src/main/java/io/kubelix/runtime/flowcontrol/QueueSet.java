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
 * One priority level's seats and queues: kube's fair-queuing queueset. A request of a Limited level
 * is dealt a hand of {@code handSize} queues by shuffle sharding its flow and joins the one of them
 * with the least work waiting (refused {@code queue-full} when the level's seats are all taken and
 * that queue holds {@code queueLengthLimit}). It waits until its queue's turn comes and the level has
 * the seats its {@link WorkEstimate} asks for, at most the wait limit ({@code time-out}). A level of
 * the {@code Reject} type has no queues: not enough free seats is {@code concurrency-limit}. An
 * Exempt level never queues. A waiting request holds no thread: it is resumed on its executor.
 *
 * <p>The turn is kube's fair queuing for server requests. Virtual time R advances, in seat-seconds,
 * at the rate each active queue would be served were the seats shared evenly between them
 * ({@code min(seats asked, limit) / active queues}). Each queue has a virtual start for its next
 * dispatch (no earlier than the arrival of its oldest request); the turn goes to the queue whose
 * oldest request would finish first in virtual time (start plus the request's work: its seats
 * times an estimated 3 ms, plus its seats kept after it answers), ties round-robin; a dispatch
 * moves its queue's start on by that work, and a request that ends corrects it by how long it
 * really took.
 */
public final class QueueSet {
    /** Why a request was refused, as kube's {@code reason} label says it. */
    public static final String QUEUE_FULL = "queue-full";
    public static final String CONCURRENCY_LIMIT = "concurrency-limit";
    public static final String TIME_OUT = "time-out";

    /** kube's estimated service duration G of a request, in seconds, before its real one is known. */
    static final double ESTIMATED_SERVICE_SECONDS = 0.003;

    private final String priorityLevel;
    private final boolean exempt;
    private final FlowControlMetrics metrics;
    private final EventClock clock;
    /** Guarded by this. */
    private int concurrencyLimit;
    private int queueLengthLimit;
    private Dealer dealer;
    /** The queues: the first {@link #desiredQueues} take new requests, any others drain. */
    private Queue[] queues = new Queue[0];
    private int desiredQueues;
    /** Virtual time R, seat-seconds, as of {@link #lastRealNanos}. */
    private double currentR;
    private long lastRealNanos;
    private int robinIndex = -1;
    private long enqueues;
    private int requestsExecuting;
    private int seatsInUse;
    private int requestsWaiting;
    private int seatsWaiting;
    private final SeatDemandIntegrator demand;
    private long dispatchedCount;
    private long rejectedCount;
    private long timedOutCount;
    private long cancelledCount;

    /** One queue of waiting requests. */
    private static final class Queue {
        final int index;
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
        int requestsExecuting;
        int seatsInUse;
        /** The virtual start of its next dispatch. */
        double nextDispatchR;

        Queue(int index) {
            this.index = index;
        }

        /** The work and the widest seats of the requests waiting, kept as they come and go. */
        double waitingWork;
        int waitingSeats;

        boolean idle() {
            return waiting.isEmpty() && requestsExecuting == 0;
        }

        void add(Waiter w) {
            waiting.add(w);
            waitingWork += w.work;
            waitingSeats += w.estimate.maxSeats();
        }

        boolean remove(Waiter w) {
            if (!waiting.remove(w)) {
                return false;
            }
            waitingWork -= w.work;
            waitingSeats -= w.estimate.maxSeats();
            if (waiting.isEmpty()) {
                // No rounding left over: an empty queue has no work.
                waitingWork = 0;
            }
            return true;
        }
    }

    /** A request waiting for, or holding, seats. */
    private final class Waiter {
        final String flowSchema;
        final String distinguisher;
        final RequestDigest digest;
        final Consumer<Outcome> later;
        final Executor executor;
        final Instant arrived = Instant.now();
        final long arrivedNanos = clock.nanoTime();
        /** R at its arrival: its queue's virtual start is never earlier. */
        final double arrivalR;
        WorkEstimate estimate;
        /** Its work in seat-seconds, with kube's estimated service duration. */
        double work;
        long startNanos;
        Queue queue;
        /** The seats it was counted for while queued (its estimate may be reshaped when dispatched). */
        final int queuedSeats;
        /** Set once it waits; a request dispatched before that has nothing to cancel (its time-out finds it gone). */
        volatile Runnable cancelTimeout = () -> { };

        Waiter(String flowSchema, String distinguisher, RequestDigest digest, WorkEstimate estimate,
               Consumer<Outcome> later, Executor executor, double arrivalR) {
            this.flowSchema = flowSchema;
            this.distinguisher = distinguisher;
            this.digest = digest;
            this.estimate = estimate;
            this.work = estimate.work(ESTIMATED_SERVICE_SECONDS);
            this.later = later;
            this.executor = executor;
            this.arrivalR = arrivalR;
            this.queuedSeats = estimate.maxSeats();
        }

        boolean watch() {
            return digest != null && digest.info() != null && "watch".equals(digest.info().verb());
        }
    }

    /** Seats held: {@link #release()} them once the request is done (again is a no-op). */
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
                dispatched = finish(waiter);
            }
            metrics.executing(waiter.flowSchema, priorityLevel, -1);
            metrics.executed(waiter.flowSchema, priorityLevel, waiter.watch(),
                    (clock.nanoTime() - waiter.startNanos) / 1e9);
            resume(dispatched);
        }
    }

    /**
     * The outcome of {@link #acquire}: seats, the reason of a refusal, or, for a request that waits
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

    QueueSet(String priorityLevel, boolean exempt, FlowControlMetrics metrics, EventClock clock) {
        this.priorityLevel = priorityLevel;
        this.exempt = exempt;
        this.metrics = metrics;
        this.clock = clock;
        this.lastRealNanos = clock.nanoTime();
        this.demand = new SeatDemandIntegrator(lastRealNanos);
    }

    /**
     * Takes the level's new limits. As kube's queueset, queues are added at once but removed by
     * attrition: a new request is dealt only among the first {@code queueCount} queues, while
     * requests already waiting in the others stay there and are dispatched in their turn; a queue
     * past the count leaves once it and those after it are idle. A level that becomes the Reject
     * type ({@code queueCount} 0) likewise drains what it had queued.
     *
     * @param queueCount 0 for the Reject type
     */
    void configure(int concurrencyLimit, int queueCount, int handSize, int queueLengthLimit) {
        List<Waiter> dispatched;
        synchronized (this) {
            syncTime();
            this.concurrencyLimit = concurrencyLimit;
            this.queueLengthLimit = queueLengthLimit;
            this.desiredQueues = queueCount;
            dealer = queueCount == 0 ? null : new Dealer(queueCount, Math.min(Math.max(handSize, 1), queueCount));
            if (queueCount > queues.length) {
                Queue[] grown = java.util.Arrays.copyOf(queues, queueCount);
                for (int i = queues.length; i < queueCount; i++) {
                    grown[i] = new Queue(i);
                }
                queues = grown;
            }
            trimQueues();
            dispatched = dispatchAsMuchAsPossible();
        }
        resume(dispatched);
    }

    /** Drops the idle queues past the desired count from the end. Holds the lock. */
    private void trimQueues() {
        int n = queues.length;
        while (n > desiredQueues && queues[n - 1].idle() && queues[n - 1].seatsInUse == 0) {
            n--;
        }
        if (n != queues.length) {
            queues = java.util.Arrays.copyOf(queues, n);
            if (robinIndex >= n) {
                robinIndex = -1;
            }
        }
    }

    /** The level's seats now (changed by borrowing and lending between levels). */
    void setConcurrencyLimit(int limit) {
        List<Waiter> dispatched;
        synchronized (this) {
            syncTime();
            concurrencyLimit = limit;
            dispatched = dispatchAsMuchAsPossible();
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
     * Asks for seats for a request of this flow. Returns seats or a refusal when no waiting is
     * needed; otherwise a {@link Outcome#queued() queued} outcome, and {@code later} is given the
     * seats or refusal on {@code executor} once the request is dispatched or refused, at most
     * {@code waitLimit} later, unless it is {@link #cancel}led first.
     */
    public Outcome acquire(String flowSchema, String distinguisher, RequestDigest digest, WorkEstimate estimate,
                           Duration waitLimit, Executor executor, Consumer<Outcome> later) {
        Waiter w;
        List<Waiter> dispatched = new ArrayList<>();
        String rejection;
        boolean queued;
        metrics.estimated(flowSchema, priorityLevel, estimate.maxSeats());
        synchronized (this) {
            syncTime();
            w = new Waiter(flowSchema, distinguisher, digest, estimate, later, executor, currentR);
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
        metrics.inQueue(flowSchema, priorityLevel, 1, w.queuedSeats);
        w.cancelTimeout = clock.schedule(() -> timeOut(w), waitLimit);
        return new Outcome(null, null, new Waiting(w));
    }

    /**
     * Takes a waiting request whose client went away out of its queue, so it is never dispatched;
     * counted as kube counts it, a rejection for {@code time-out}. Its {@code later} is not called.
     * Returns false when it no longer waited (dispatched, refused or cancelled already).
     */
    public boolean cancel(Waiting waiting) {
        Waiter w = waiting.waiter;
        List<Waiter> dispatched;
        synchronized (this) {
            if (!leaveQueue(w)) {
                return false;
            }
            cancelledCount++;
            // Its queue's turn may now go to a request the departed one held back.
            dispatched = dispatchAsMuchAsPossible();
        }
        w.cancelTimeout.run();
        metrics.inQueue(w.flowSchema, priorityLevel, -1, -w.queuedSeats);
        refused(w, TIME_OUT);
        resume(dispatched);
        return true;
    }

    /**
     * Dispatches the request, queues it, or says why not; {@code dispatched} gets the requests
     * (this one included) given seats from the queues. Holds the lock.
     */
    private String enqueue(Waiter w, List<Waiter> dispatched) {
        if (exempt) {
            startSansQueue(w);
            return null;
        }
        if (desiredQueues == 0) {
            if (!canAccommodate(w.estimate.maxSeats())) {
                rejectedCount++;
                return CONCURRENCY_LIMIT;
            }
            startSansQueue(w);
            return null;
        }
        Queue q = shuffleShard(Dealer.flowHash(w.flowSchema, w.distinguisher));
        if (seatsInUse >= concurrencyLimit && q.waiting.size() >= queueLengthLimit) {
            rejectedCount++;
            return QUEUE_FULL;
        }
        if (q.idle()) {
            q.nextDispatchR = currentR;
        }
        w.queue = q;
        q.add(w);
        metrics.queueLength(w.flowSchema, priorityLevel, q.waiting.size());
        requestsWaiting++;
        seatsWaiting += w.estimate.maxSeats();
        boundNextDispatch(q);
        dispatched.addAll(dispatchAsMuchAsPossible());
        return null;
    }

    private void startSansQueue(Waiter w) {
        w.startNanos = clock.nanoTime();
        requestsExecuting++;
        seatsInUse += w.estimate.maxSeats();
        dispatchedCount++;
        noteDemand();
    }

    /** Removes a waiting request from its queue, as refused; false when it was not waiting. Holds the lock. */
    private boolean leaveQueue(Waiter w) {
        syncTime();
        Queue q = w.queue;
        if (q == null || !q.remove(w)) {
            return false;
        }
        requestsWaiting--;
        seatsWaiting -= w.estimate.maxSeats();
        rejectedCount++;
        boundNextDispatch(q);
        return true;
    }

    private void timeOut(Waiter w) {
        List<Waiter> dispatched;
        synchronized (this) {
            if (!leaveQueue(w)) {
                return;
            }
            timedOutCount++;
            dispatched = dispatchAsMuchAsPossible();
        }
        metrics.inQueue(w.flowSchema, priorityLevel, -1, -w.queuedSeats);
        w.executor.execute(() -> w.later.accept(refused(w, TIME_OUT)));
        resume(dispatched);
    }

    /** A refusal, with its metrics. */
    private Outcome refused(Waiter w, String rejection) {
        metrics.waited(w.flowSchema, priorityLevel, false, (clock.nanoTime() - w.arrivedNanos) / 1e9);
        metrics.rejected(w.flowSchema, priorityLevel, rejection);
        return new Outcome(null, rejection);
    }

    /** Seats, with their metrics. */
    private Outcome started(Waiter w) {
        metrics.waited(w.flowSchema, priorityLevel, true, (w.startNanos - w.arrivedNanos) / 1e9);
        metrics.dispatched(w.flowSchema, priorityLevel);
        metrics.executing(w.flowSchema, priorityLevel, 1);
        metrics.executingSeats(w.flowSchema, priorityLevel, w.estimate.maxSeats());
        return new Outcome(new Seat(w), null);
    }

    /** Resumes requests that were waiting and are dispatched now, each on its executor. Called without the lock. */
    private void resume(List<Waiter> dispatched) {
        for (Waiter w : dispatched) {
            w.cancelTimeout.run();
            metrics.inQueue(w.flowSchema, priorityLevel, -1, -w.queuedSeats);
            w.executor.execute(() -> w.later.accept(started(w)));
        }
    }

    /**
     * Advances virtual time to now at the rate the state since the last change gave it: the seats
     * asked for (capped at the limit) shared by the active queues. Call before any change. Holds the lock.
     */
    private void syncTime() {
        long now = clock.nanoTime();
        double seconds = (now - lastRealNanos) / 1e9;
        lastRealNanos = now;
        int active = 0;
        int seatsAsked = 0;
        for (Queue q : queues) {
            if (!q.idle()) {
                active++;
                seatsAsked += q.seatsInUse + q.waitingSeats;
            }
        }
        if (active > 0 && seconds > 0) {
            currentR += Math.min(seatsAsked, concurrencyLimit) * seconds / active;
        }
        noteDemand();
    }

    /** Tells the seat demand integrator the demand of now. Holds the lock. */
    private void noteDemand() {
        demand.set(clock.nanoTime(), seatsInUse + seatsWaiting);
    }

    /**
     * Of the flow's hand, the queue with the least work waiting (kube's shuffleShardLocked); the
     * hand is visited from a rotating offset, so ties do not always favour its first card.
     */
    private Queue shuffleShard(long hash) {
        int[] hand = dealer.deal(hash);
        int offset = (int) (enqueues++ % hand.length);
        Queue best = null;
        double least = Double.MAX_VALUE;
        for (int i = 0; i < hand.length; i++) {
            Queue q = queues[hand[(offset + i) % hand.length]];
            double work = q.waitingWork;
            if (work < least) {
                least = work;
                best = q;
            }
        }
        return best;
    }

    /** kube's anti-windup: a queue's virtual start is never before its oldest request arrived. Holds the lock. */
    private void boundNextDispatch(Queue q) {
        Waiter oldest = q.waiting.peek();
        if (oldest != null && q.nextDispatchR < oldest.arrivalR) {
            q.nextDispatchR = oldest.arrivalR;
        }
    }

    /**
     * Whether {@code seats} more fit: a request asking for more than the whole limit runs once
     * nothing else does, as kube lets it. Holds the lock.
     */
    private boolean canAccommodate(int seats) {
        if (seats > concurrencyLimit) {
            return requestsExecuting == 0;
        }
        return seatsInUse + seats <= concurrencyLimit;
    }

    /**
     * Gives free seats to waiting requests by fair queuing; returns those dispatched. A level lent
     * down to no seats at all still serves one request at a time, where kube's would wait for the
     * next adjustment to give it seats (which happens only on servers of very few seats). Holds the lock.
     */
    private List<Waiter> dispatchAsMuchAsPossible() {
        List<Waiter> dispatched = new ArrayList<>();
        while (requestsWaiting > 0 && (seatsInUse < concurrencyLimit || requestsExecuting == 0 && seatsInUse == 0)) {
            Waiter w = dispatchOne();
            if (w == null) {
                break;
            }
            dispatched.add(w);
        }
        trimQueues();
        noteDemand();
        return dispatched;
    }

    /**
     * kube's findDispatchQueue: from the queue after the last dispatched on, the first whose oldest
     * request has the smallest virtual finish; nothing when that request's seats are not free
     * (it is not passed over for a narrower one). Holds the lock.
     */
    private Waiter dispatchOne() {
        Queue best = null;
        double minFinish = Double.MAX_VALUE;
        int index = robinIndex;
        int bestIndex = -1;
        for (int k = 0; k < queues.length; k++) {
            index = (index + 1) % queues.length;
            Queue q = queues[index];
            Waiter oldest = q.waiting.peek();
            if (oldest != null && q.nextDispatchR + oldest.work < minFinish) {
                minFinish = q.nextDispatchR + oldest.work;
                best = q;
                bestIndex = index;
            }
        }
        if (best == null) {
            return null;
        }
        if (!canAccommodate(best.waiting.peek().estimate.maxSeats())) {
            metrics.noAccommodation(best.waiting.peek().flowSchema, priorityLevel);
            return null;
        }
        Waiter w = best.waiting.peek();
        best.remove(w);
        seatsWaiting -= w.estimate.maxSeats();
        if (w.estimate.finalSeats() > concurrencyLimit && concurrencyLimit > 0) {
            // Seats kept after answering are reshaped to fit the level: fewer, for longer, the same work.
            double finalWork = w.estimate.finalSeats() * w.estimate.additionalLatency().toNanos() / 1e9;
            w.estimate = new WorkEstimate(w.estimate.initialSeats(), concurrencyLimit,
                    Duration.ofNanos(Math.round(finalWork / concurrencyLimit * 1e9)));
        }
        robinIndex = bestIndex;
        requestsWaiting--;
        w.startNanos = clock.nanoTime();
        requestsExecuting++;
        seatsInUse += w.estimate.maxSeats();
        best.requestsExecuting++;
        best.seatsInUse += w.estimate.maxSeats();
        dispatchedCount++;
        best.nextDispatchR += w.work;
        boundNextDispatch(best);
        return w;
    }

    /**
     * A request has answered: its queue's virtual start is corrected by how much shorter or longer
     * than estimated it ran, and its seats are freed now or, for a write with watchers, once its
     * additional latency has passed. Returns those dispatched into the seats freed. Holds the lock.
     */
    private List<Waiter> finish(Waiter w) {
        syncTime();
        requestsExecuting--;
        Queue q = w.queue;
        if (q != null) {
            q.requestsExecuting--;
            double actual = (clock.nanoTime() - w.startNanos) / 1e9;
            q.nextDispatchR -= w.estimate.initialSeats() * (ESTIMATED_SERVICE_SECONDS - actual);
            boundNextDispatch(q);
        }
        Duration linger = w.estimate.additionalLatency();
        if (linger.isZero() || linger.isNegative()) {
            releaseSeats(w);
            return dispatchAsMuchAsPossible();
        }
        clock.schedule(() -> {
            List<Waiter> dispatched;
            synchronized (this) {
                syncTime();
                releaseSeats(w);
                dispatched = dispatchAsMuchAsPossible();
            }
            resume(dispatched);
        }, linger);
        return List.of();
    }

    private void releaseSeats(Waiter w) {
        metrics.executingSeats(w.flowSchema, priorityLevel, -w.estimate.maxSeats());
        seatsInUse -= w.estimate.maxSeats();
        if (w.queue != null) {
            w.queue.seatsInUse -= w.estimate.maxSeats();
        }
    }

    /** A row of {@code dump_priority_levels}. */
    record LevelState(String name, boolean exempt, int activeQueues, int waiting, int executing, int seatsInUse,
                      long dispatched, long rejected, long timedOut, long cancelled) {
    }

    /** A row of {@code dump_queues}. */
    record QueueState(int index, int waiting, int executing, int seatsInUse, double nextDispatchR, int initialSeatsSum,
                      int maxSeatsSum, double totalWorkSum) {
    }

    /** A row of {@code dump_requests}. */
    record WaitingRequest(String flowSchema, int queue, int indexInQueue, String distinguisher, Instant arrived,
                          WorkEstimate estimate, RequestDigest digest) {
    }

    synchronized LevelState state() {
        int active = 0;
        for (Queue q : queues) {
            if (!q.idle()) {
                active++;
            }
        }
        return new LevelState(priorityLevel, exempt, active, requestsWaiting, requestsExecuting, seatsInUse,
                dispatchedCount, rejectedCount, timedOutCount, cancelledCount);
    }

    /** The seat demand since the last call (kube resets its integrator at every borrowing adjustment). */
    synchronized SeatDemandIntegrator.Results resetSeatDemand() {
        syncTime();
        return demand.reset(clock.nanoTime());
    }

    synchronized List<QueueState> queues() {
        syncTime();
        List<QueueState> out = new ArrayList<>();
        for (Queue q : queues) {
            int initial = 0;
            for (Waiter w : q.waiting) {
                initial += w.estimate.initialSeats();
            }
            out.add(new QueueState(q.index, q.waiting.size(), q.requestsExecuting, q.seatsInUse, q.nextDispatchR,
                    initial, q.waitingSeats, q.waitingWork));
        }
        return out;
    }

    synchronized List<WaitingRequest> waiting() {
        List<WaitingRequest> out = new ArrayList<>();
        for (Queue q : queues) {
            int i = 0;
            for (Iterator<Waiter> it = q.waiting.iterator(); it.hasNext(); i++) {
                Waiter w = it.next();
                out.add(new WaitingRequest(w.flowSchema, q.index, i, w.distinguisher, w.arrived, w.estimate,
                        w.digest));
            }
        }
        return out;
    }
}
