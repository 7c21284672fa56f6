package io.kubelix.runtime.storage.cacher;

import io.kubelix.api.storage.WatchEvent;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A watcher's buffer of live events: bounded, and without a lock, because the dispatcher adds to it
 * while the watcher's writer takes from it, for every event and every watcher; with a lock the two
 * meet on it and one is parked and woken each time. Waiting (a full buffer in its grace time, or a
 * reader with nothing to read) is done in short sleeps, which only slow watchers and the blocking
 * reader of an uncached stream see.
 */
final class EventBuffer {
    private static final long FULL_SLEEP_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long EMPTY_SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ConcurrentLinkedQueue<WatchEvent> queue = new ConcurrentLinkedQueue<>();
    /** Events offered and not yet taken (briefly one more while a full buffer refuses one). */
    private final AtomicInteger size = new AtomicInteger();
    private final int capacity;

    EventBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds {@code e} unless the buffer is full. */
    boolean offer(WatchEvent e) {
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            return false;
        }
        queue.add(e);
        return true;
    }

    /** Adds {@code e}, waiting up to {@code waitNanos} for room. */
    boolean offer(WatchEvent e, long waitNanos) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        while (!offer(e)) {
            if (!sleepTowards(deadline, FULL_SLEEP_NANOS)) {
                return false;
            }
        }
        return true;
    }

    /** The oldest event, or null. */
    WatchEvent poll() {
        WatchEvent e = queue.poll();
        if (e != null) {
            size.decrementAndGet();
        }
        return e;
    }

    /** The oldest event, waiting up to {@code waitNanos} for one; null if none came. */
    WatchEvent poll(long waitNanos) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        WatchEvent e;
        while ((e = poll()) == null) {
            if (!sleepTowards(deadline, EMPTY_SLEEP_NANOS)) {
                return null;
            }
        }
        return e;
    }

    /** Sleeps at most {@code step} towards {@code deadline} (System.nanoTime()); false once it has passed. */
    private static boolean sleepTowards(long deadline, long step) throws InterruptedException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return false;
        }
        LockSupport.parkNanos(Math.min(left, step));
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return true;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    void clear() {
        while (poll() != null) {
            // drop
        }
    }
}
