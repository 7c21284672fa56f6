package io.kubelix.runtime.controller.workqueue;

import io.kubelix.api.informer.RateLimiter;
import io.kubelix.api.informer.RateLimitingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * client-go's rate-limiting work queue: the FIFO of {@code workqueue.Type} (a queue, the
 * {@code dirty} set of items waiting to be processed and the {@code processing} set of items
 * handed out), the delays of {@code delayingType}, and a {@link RateLimiter}. The contract is
 * {@link RateLimitingQueue}'s. Delayed items wait in a heap and are moved to the queue by whoever
 * next looks at it, so a queue needs no thread of its own; a waiting {@link #get()} wakes up when
 * the earliest delay ends.
 */
public final class WorkQueue<T> implements RateLimitingQueue<T> {
    private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);

    private record Waiting<T>(long readyAt, T item) {
    }

    private final String name;
    private final RateLimiter<T> rateLimiter;
    private final Ticker ticker;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    /** Items that need processing: queued, or added again while being processed. */
    private final Set<T> dirty = new HashSet<>();
    private final Set<T> processing = new HashSet<>();
    /** The time each delayed item is due; the heap may hold stale entries, which this map tells apart. */
    private final Map<T, Long> waiting = new HashMap<>();
    private final PriorityQueue<Waiting<T>> waitingHeap = new PriorityQueue<>((a, b) -> Long.compare(a.readyAt, b.readyAt));
    private boolean shuttingDown;

    public WorkQueue(String name, RateLimiter<T> rateLimiter, Ticker ticker) {
        this.name = name;
        this.rateLimiter = rateLimiter;
        this.ticker = ticker;
    }

    /** A queue with the default controller rate limiter, on the system clock. */
    public static <T> WorkQueue<T> withDefaultRateLimiter(String name) {
        return new WorkQueue<>(name, MaxOfRateLimiter.defaultControllerRateLimiter(Ticker.SYSTEM), Ticker.SYSTEM);
    }

    public String name() {
        return name;
    }

    @Override
    public void add(T item) {
        lock.lock();
        try {
            if (!shuttingDown) {
                addLocked(item);
            }
        } finally {
            lock.unlock();
        }
    }

    private void addLocked(T item) {
        if (!dirty.add(item) || processing.contains(item)) {
            // Queued already, or being processed: done() queues it again.
            return;
        }
        queue.add(item);
        changed.signalAll();
    }

    @Override
    public void addAfter(T item, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(item);
            return;
        }
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            long readyAt = ticker.nanoTime() + delay.toNanos();
            Long due = waiting.get(item);
            if (due == null || readyAt - due < 0) {
                waiting.put(item, readyAt);
                waitingHeap.add(new Waiting<>(readyAt, item));
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void addRateLimited(T item) {
        addAfter(item, rateLimiter.when(item));
    }

    @Override
    public void forget(T item) {
        rateLimiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return rateLimiter.numRequeues(item);
    }

    @Override
    public T get() throws InterruptedException {
        lock.lock();
        try {
            while (true) {
                promoteDue();
                T item = queue.poll();
                if (item != null) {
                    processing.add(item);
                    dirty.remove(item);
                    return item;
                }
                if (shuttingDown) {
                    return null;
                }
                Waiting<T> next = waitingHeap.peek();
                if (next == null) {
                    changed.await();
                } else {
                    changed.awaitNanos(Math.max(1, next.readyAt - ticker.nanoTime()));
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Moves the delayed items that are due to the queue. */
    private void promoteDue() {
        long now = ticker.nanoTime();
        for (Waiting<T> w = waitingHeap.peek(); w != null && w.readyAt - now <= 0; w = waitingHeap.peek()) {
            waitingHeap.poll();
            Long due = waiting.get(w.item);
            if (due != null && due == w.readyAt) {
                waiting.remove(w.item);
                addLocked(w.item);
            }
        }
    }

    @Override
    public void done(T item) {
        lock.lock();
        try {
            processing.remove(item);
            if (dirty.contains(item)) {
                queue.add(item);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int len() {
        lock.lock();
        try {
            if (!shuttingDown) {
                promoteDue();
            }
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDown() {
        lock.lock();
        try {
            if (!shuttingDown) {
                shuttingDown = true;
                // Delayed adds die with the queue, as client-go's delaying queue stops its waiting loop.
                waiting.clear();
                waitingHeap.clear();
                LOG.debug("work queue {}: shutting down with {} queued, {} in processing", name, queue.size(),
                        processing.size());
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDownWithDrain() throws InterruptedException {
        shutDown();
        lock.lock();
        try {
            while (!processing.isEmpty()) {
                changed.await();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean shuttingDown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }
}
