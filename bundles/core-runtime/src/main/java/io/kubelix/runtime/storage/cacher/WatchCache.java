package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.WatchEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;

/**
 * The watchCache: the current objects of one resource, by key, and a sliding window of the most
 * recent events. Objects kept here are shared and never changed; readers copy what they hand
 * out. The resourceVersion only grows: events and the backend's progress notifications move it.
 */
final class WatchCache {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Condition advanced = lock.writeLock().newCondition();
    private final TreeMap<String, StoreElement> store = new TreeMap<>();
    private final EventWindow bounds;
    private final long freshNanos;
    private final LongSupplier nanoClock;
    /** The window: a ring of {@code size} events from {@code start}; its length is the window's capacity. */
    private WatchCacheEvent[] window;
    private int start;
    private int size;
    /** Events after this resourceVersion are all in the window. */
    private long windowStart;
    /** The revision of the list the cache was last filled from. */
    private long listedAt;
    private volatile long resourceVersion;

    /** A cache whose window keeps exactly {@code capacity} events. */
    WatchCache(int capacity) {
        this(EventWindow.fixed(capacity), System::nanoTime);
    }

    /** A cache whose window is sized by {@code bounds}, reading the time from {@code nanoClock}. */
    WatchCache(EventWindow bounds, LongSupplier nanoClock) {
        this.bounds = bounds;
        this.freshNanos = bounds.freshness().toNanos();
        this.nanoClock = nanoClock;
        this.window = new WatchCacheEvent[bounds.minEvents()];
    }

    /** Replaces everything with a fresh list at {@code rv}; the window restarts empty. */
    void replace(List<ObjectNode> items, long rv, java.util.function.Function<ObjectNode, String> keyOf) {
        lock.writeLock().lock();
        try {
            store.clear();
            for (ObjectNode o : items) {
                String key = keyOf.apply(o);
                store.put(key, new StoreElement(key, o));
            }
            java.util.Arrays.fill(window, null);
            start = 0;
            size = 0;
            windowStart = rv;
            listedAt = rv;
            resourceVersion = rv;
            advanced.signalAll();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Applies one backend event and returns it as the cache keeps it. */
    WatchCacheEvent process(WatchEvent.Type type, String key, ObjectNode object) {
        long rv = APIObjectVersioner.INSTANCE.objectResourceVersion(object);
        lock.writeLock().lock();
        try {
            StoreElement element = new StoreElement(key, object);
            StoreElement prev = type == WatchEvent.Type.DELETED ? store.remove(key) : store.put(key, element);
            long now = nanoClock.getAsLong();
            WatchCacheEvent e = new WatchCacheEvent(type, element, prev, rv, now);
            resizeFor(now);
            if (size == window.length) {
                windowStart = at(0).resourceVersion;
                window[start] = null;
                start = (start + 1) % window.length;
                size--;
            }
            window[(start + size) % window.length] = e;
            size++;
            resourceVersion = Math.max(resourceVersion, rv);
            advanced.signalAll();
            return e;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * kube's resizeCacheLocked, before an event arrives at {@code now}: a full window whose oldest
     * event is still fresh doubles rather than drop it; a window whose newest quarter of capacity
     * reaches back past the freshness halves, dropping its oldest events if it must. Unlike kube's,
     * the halving does not wait for the window to be full, so a window grown in a burst shrinks
     * again as the next events arrive slowly.
     */
    private void resizeFor(long now) {
        int capacity = window.length;
        if (size == capacity && capacity < bounds.maxEvents() && now - at(0).recordedNanos < freshNanos) {
            resize(Math.min(2 * capacity, bounds.maxEvents()));
        } else if (size > 0 && capacity > bounds.minEvents()
                && now - at(Math.max(0, size - capacity / 4)).recordedNanos > freshNanos) {
            resize(Math.max(capacity / 2, bounds.minEvents()));
        }
    }

    /** Moves the window into a ring of {@code capacity}, keeping its newest events. */
    private void resize(int capacity) {
        WatchCacheEvent[] resized = new WatchCacheEvent[capacity];
        int keep = Math.min(size, capacity);
        if (keep < size) {
            // Events after the last one dropped are all kept: watches from before it get 410.
            windowStart = at(size - keep - 1).resourceVersion;
        }
        for (int i = 0; i < keep; i++) {
            resized[i] = at(size - keep + i);
        }
        window = resized;
        start = 0;
        size = keep;
    }

    /** The window's {@code i}-th event, oldest first. */
    private WatchCacheEvent at(int i) {
        return window[(start + i) % window.length];
    }

    /** The window's capacity now (for tests and the cache's stats). */
    int capacity() {
        lock.readLock().lock();
        try {
            return window.length;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** How many objects the cache holds now (apiserver_storage_objects). */
    int objects() {
        lock.readLock().lock();
        try {
            return store.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** A progress notification: nothing changed for this resource up to {@code rv}. */
    void bookmark(long rv) {
        lock.writeLock().lock();
        try {
            if (rv > resourceVersion) {
                resourceVersion = rv;
                advanced.signalAll();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    long resourceVersion() {
        return resourceVersion;
    }

    /** Waits until the cache has reached {@code rv}; false when it did not within the timeout. */
    boolean waitUntilFresh(long rv, long timeoutMillis) throws InterruptedException {
        if (resourceVersion >= rv) {
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        lock.writeLock().lock();
        try {
            while (resourceVersion < rv) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                advanced.awaitNanos(left);
            }
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The object at {@code key}, shared (copy before changing it), or null. */
    ObjectNode get(String key) {
        lock.readLock().lock();
        try {
            StoreElement e = store.get(key);
            return e == null ? null : e.object;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The objects under the directory {@code dir} that match, in key order, and the version they are at. */
    Snapshot list(String dir, SelectionPredicate predicate) {
        lock.readLock().lock();
        try {
            List<StoreElement> items = new ArrayList<>();
            boolean everything = predicate.matchesEverything();
            for (StoreElement e : store.subMap(dir + "/", dir + "0").values()) {
                if (everything || predicate.matches(e.object)) {
                    items.add(e);
                }
            }
            return new Snapshot(items, resourceVersion);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * A page of the objects under the directory {@code dir} as they were at revision {@code rv},
     * from the key {@code from} on (null: from the start): kube's snapshots of the cache, taken here
     * by undoing the window's events after {@code rv} on the current objects, so every page of a
     * list reads the same state while the window still holds it.
     *
     * @return the page, or null when the cache cannot tell the state at {@code rv}: older than the
     *         window, or newer than the cache
     */
    ListPage listAt(String dir, long rv, String from, SelectionPredicate predicate, long limit) {
        lock.readLock().lock();
        try {
            if (rv < windowStart || rv > resourceVersion) {
                return null;
            }
            String lo = from == null || from.compareTo(dir + "/") < 0 ? dir + "/" : from;
            String hi = dir + "0";
            if (lo.compareTo(hi) >= 0) {
                return new ListPage(List.of(), null, 0);
            }
            NavigableMap<String, StoreElement> current = store.subMap(lo, true, hi, false);
            TreeMap<String, StoreElement> undo = new TreeMap<>();
            for (int i = firstAfter(rv); i < size; i++) {
                WatchCacheEvent e = at(i);
                // The first change after rv says what the key held at rv.
                if (e.key.compareTo(lo) >= 0 && e.key.compareTo(hi) < 0 && !undo.containsKey(e.key)) {
                    undo.put(e.key, e.prev);
                }
            }
            return ListPage.collect(current, undo, predicate, limit);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Whether {@link #listAt} can read revision {@code rv}. */
    boolean retains(long rv) {
        lock.readLock().lock();
        try {
            return rv >= windowStart && rv <= resourceVersion;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The window position of the first event after {@code rv}; {@code size} when there is none. A
     * binary search: the window is ordered by resourceVersion.
     */
    int firstAfter(long rv) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (at(mid).resourceVersion > rv) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * The events after {@code rv}, oldest first; called with the dispatch lock held so no event
     * is processed meanwhile.
     *
     * @throws StatusException 410 Expired when {@code rv} is older than the window
     */
    List<WatchCacheEvent> eventsAfter(long rv) {
        lock.readLock().lock();
        try {
            if (rv < windowStart) {
                throw StatusException.resourceExpired("too old resource version: " + rv + " (" + windowStart + ")");
            }
            int first = firstAfter(rv);
            List<WatchCacheEvent> out = new ArrayList<>(size - first);
            for (int i = first; i < size; i++) {
                out.add(at(i));
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * As {@link #eventsAfter}, but null when {@code rv} is from before the list that filled the
     * cache and nothing has left the window since: the cache never had those events, the backend
     * may. A version that left the window is 410, as kube-apiserver's cache answers.
     */
    List<WatchCacheEvent> eventsAfterIfRetained(long rv) {
        lock.readLock().lock();
        try {
            return rv < windowStart && windowStart == listedAt ? null : eventsAfter(rv);
        } finally {
            lock.readLock().unlock();
        }
    }

    record Snapshot(List<StoreElement> items, long resourceVersion) {
    }
}
