package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * cacheWatcher: one client's watch on the cache. Its initial events (current state, or the window
 * since its resourceVersion) are queued without limit when it starts; live events go to a bounded
 * buffer the dispatcher fills without blocking past its grace budget. A watcher whose buffer stays
 * full is terminated: its stream ends and the client re-watches, as kube-apiserver does.
 */
final class CacheWatcher implements Watch {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How long before its deadline a watch gets its last BOOKMARK, as kube's cacheWatcher sends it. */
    static final Duration PRE_TIMEOUT = Duration.ofSeconds(2);
    private static final long PRE_TIMEOUT_NANOS = PRE_TIMEOUT.toNanos();

    final String dir;
    final boolean bookmarks;
    /** The value of the resource's indexed field its selector requires, or null; the dispatch lock guards it. */
    String triggerValue;
    private final SelectionPredicate predicate;
    private final long startResourceVersion;
    private final Queue<WatchEvent> initial = new ArrayDeque<>();
    private final EventBuffer buffer;
    private final AtomicReference<Runnable> readyListener = new AtomicReference<>();
    private final AtomicReference<Runnable> endListener = new AtomicReference<>();
    private final Consumer<CacheWatcher> onClose;
    private final Consumer<CacheWatcher> onProgressRequest;
    private volatile boolean stopped;
    private volatile boolean terminated;
    /** Whether the server said when it ends this watch, and when (System.nanoTime()). */
    private final boolean hasDeadline;
    private final long deadline;
    /** When the next BOOKMARK is due; changed by the dispatcher only. */
    private long nextBookmark;
    private boolean bookmarkScheduled;

    /** @param timeout how long the server streams this watch from now, or null when not bounded */
    CacheWatcher(String dir, SelectionPredicate predicate, boolean bookmarks, long startResourceVersion, int bufferSize,
                 Duration timeout, Duration bookmarkInterval, Consumer<CacheWatcher> onClose,
                 Consumer<CacheWatcher> onProgressRequest) {
        this.dir = dir;
        this.predicate = predicate;
        this.bookmarks = bookmarks;
        this.startResourceVersion = startResourceVersion;
        this.buffer = new EventBuffer(bufferSize);
        this.onClose = onClose;
        this.onProgressRequest = onProgressRequest;
        long now = System.nanoTime();
        this.hasDeadline = timeout != null;
        this.deadline = timeout == null ? 0 : now + timeout.toNanos();
        scheduleBookmark(now, bookmarkInterval);
    }

    /**
     * kube's nextBookmarkTime: a BOOKMARK every {@code interval}, and one shortly before the
     * deadline ({@link #PRE_TIMEOUT} before it) so the client resumes from a recent version; none once
     * that moment has passed.
     */
    private void scheduleBookmark(long now, Duration interval) {
        long next = now + interval.toNanos();
        if (hasDeadline && deadline - PRE_TIMEOUT_NANOS - next < 0) {
            next = deadline - PRE_TIMEOUT_NANOS;
        }
        bookmarkScheduled = bookmarks && next - now >= 0;
        nextBookmark = next;
    }

    /** Offers a BOOKMARK at {@code rv} when one is due at {@code now}, and schedules the next one. */
    void bookmarkIfDue(long now, long rv, Duration interval) {
        if (bookmarkScheduled && now - nextBookmark >= 0) {
            offerBookmark(rv);
            scheduleBookmark(now, interval);
        }
    }

    /** Queues a start-up event; called before the watcher is registered for live events. */
    void addInitial(WatchEvent e) {
        synchronized (initial) {
            initial.add(e);
        }
    }

    /**
     * The event as this watcher sees it (kube's convertToWatchEvent): an object entering the
     * selection is ADDED, one leaving it is DELETED with its previous content, others not at all.
     */
    WatchEvent convert(WatchCacheEvent e) {
        if (e.resourceVersion <= startResourceVersion) {
            return null;
        }
        boolean everything = predicate.matchesEverything();
        boolean cur = e.type != WatchEvent.Type.DELETED && (everything || predicate.matches(e.object));
        boolean prev = e.prevObject != null && (everything || predicate.matches(e.prevObject));
        if (e.type == WatchEvent.Type.DELETED) {
            return prev || everything ? e.toWatchEvent(WatchEvent.Type.DELETED, e.object) : null;
        }
        if (cur && prev) {
            return e.toWatchEvent(WatchEvent.Type.MODIFIED, e.object);
        }
        if (cur) {
            return e.toWatchEvent(WatchEvent.Type.ADDED, e.object);
        }
        if (prev) {
            ObjectNode old = e.prevObject.deepCopy();
            APIObjectVersioner.INSTANCE.updateObject(old, e.resourceVersion);
            return new WatchEvent(WatchEvent.Type.DELETED, old, null);
        }
        return null;
    }

    /**
     * Offers a live event, waiting at most {@code waitNanos}.
     *
     * @return the nanoseconds spent waiting; -1 when the watcher was terminated for being too slow
     */
    long offer(WatchEvent e, long waitNanos) throws InterruptedException {
        if (stopped) {
            return 0;
        }
        long begin = System.nanoTime();
        boolean queued = buffer.offer(e) || waitNanos > 0 && buffer.offer(e, waitNanos);
        long spent = System.nanoTime() - begin;
        if (!queued) {
            // The client re-watches from the last version it read; what it had queued is dropped now.
            terminated = true;
            stopped = true;
            buffer.clear();
            synchronized (initial) {
                initial.clear();
            }
            notifyReady();
            notifyEnd();
            return -1;
        }
        notifyReady();
        return spent;
    }

    /** A BOOKMARK at {@code rv}, dropped when the buffer is full (a later one will do). */
    void offerBookmark(long rv) {
        if (!stopped && bookmarks) {
            if (buffer.offer(WatchEvent.of(WatchEvent.Type.BOOKMARK, bookmarkObject(rv)))) {
                notifyReady();
            }
        }
    }

    static ObjectNode bookmarkObject(long rv) {
        ObjectNode o = F.objectNode();
        o.putObject("metadata").put("resourceVersion", Long.toString(rv));
        return o;
    }

    /**
     * RequestWatchProgress: a BOOKMARK at the revision the cache reaches with the backend's next
     * progress notification, behind every event up to it (for a watcher that asked for bookmarks).
     */
    @Override
    public void requestProgress() {
        if (!stopped && bookmarks) {
            onProgressRequest.accept(this);
        }
    }

    @Override
    public boolean terminatedForBeingSlow() {
        return terminated;
    }

    /** Ends the stream from the cache's side (relist, shutdown); the client re-watches. */
    void stop() {
        stopped = true;
        notifyReady();
        notifyEnd();
    }

    @Override
    public WatchEvent next(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            WatchEvent e = poll();
            long left = deadline - System.nanoTime();
            if (e != null || stopped || left <= 0) {
                return e;
            }
            // Short slices, so close() from another thread ends the wait promptly.
            e = buffer.poll(Math.min(left, SLICE_NANOS));
            if (e != null) {
                return e;
            }
        }
    }

    @Override
    public WatchEvent poll() {
        synchronized (initial) {
            WatchEvent e = initial.poll();
            if (e != null) {
                return e;
            }
        }
        return buffer.poll();
    }

    @Override
    public boolean done() {
        if (!stopped) {
            return false;
        }
        synchronized (initial) {
            return initial.isEmpty() && buffer.isEmpty();
        }
    }

    @Override
    public boolean onReady(Runnable listener) {
        readyListener.set(listener);
        if (stopped || !buffer.isEmpty() || hasInitial()) {
            notifyReady();
        }
        return true;
    }

    @Override
    public boolean onEnd(Runnable listener) {
        endListener.set(listener);
        if (stopped) {
            notifyEnd();
        }
        return true;
    }

    @Override
    public void close() {
        if (!stopped) {
            stopped = true;
        }
        onClose.accept(this);
        notifyReady();
    }

    private boolean hasInitial() {
        synchronized (initial) {
            return !initial.isEmpty();
        }
    }

    private void notifyEnd() {
        Runnable r = endListener.getAndSet(null);
        if (r != null) {
            r.run();
        }
    }

    private void notifyReady() {
        Runnable r = readyListener.getAndSet(null);
        if (r != null) {
            r.run();
        }
    }
}
