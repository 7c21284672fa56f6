package io.kubelix.support.storage;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One watcher. Writers hand it raw events without waiting ({@link #offer}); its consumer decodes
 * and filters them in {@link #next}. The live queue is bounded: a watcher that falls that far
 * behind is ended rather than blocking writers or growing, and its client re-watches from the
 * last revision it saw. The backlog (the initial state, or the events replayed from a revision)
 * is bounded by the store's size and window and does not count against the queue.
 */
public final class QueuedWatch implements Watch {
    private final String resource;
    private final KeyRange range;
    private final WatchEventFilter filter;
    private final boolean progressNotify;
    private final int capacity;
    /** Events at or before this revision are not this watcher's: it starts after them. */
    private final long startRevision;
    private final Consumer<QueuedWatch> onClose;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** StoredEvents to transform, or WatchEvents ready to deliver. */
    private final ArrayDeque<Object> backlog = new ArrayDeque<>();
    private final ArrayDeque<Object> live = new ArrayDeque<>();
    private boolean ended;
    private long lastSentNanos = System.nanoTime();
    private final Consumer<QueuedWatch> onProgressRequest;

    public QueuedWatch(String resource, KeyRange range, WatchEventFilter filter, boolean progressNotify, int capacity,
                long startRevision, Consumer<QueuedWatch> onClose, Consumer<QueuedWatch> onProgressRequest) {
        this.onProgressRequest = onProgressRequest;
        this.resource = resource;
        this.range = range;
        this.filter = filter;
        this.progressNotify = progressNotify;
        this.capacity = capacity;
        this.startRevision = startRevision;
        this.onClose = onClose;
    }

    public String resource() {
        return resource;
    }

    public KeyRange range() {
        return range;
    }

    public long startRevision() {
        return startRevision;
    }

    public int capacity() {
        return capacity;
    }

    /** Adds events to deliver before any live event: the initial state or the replay. */
    public void addBacklog(List<?> items) {
        lock.lock();
        try {
            if (!ended) {
                backlog.addAll(items);
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues a live write, called by the store under its write lock, in revision order.
     *
     * @return false when the queue is full and the watcher has just been ended
     */
    public boolean offer(StoredEvent e) {
        if (e.revision() <= startRevision || !range.matches(e.key())) {
            return true;
        }
        lock.lock();
        try {
            if (ended) {
                return true;
            }
            if (live.size() >= capacity) {
                ended = true;
                changed.signalAll();
                return false;
            }
            live.add(e);
            lastSentNanos = System.nanoTime();
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Queues a BOOKMARK at {@code revision} if the watcher asked for them and has been idle. */
    @Override
    public void requestProgress() {
        onProgressRequest.accept(this);
    }

    /** Queues a BOOKMARK at {@code revision} behind whatever is queued; called under the store's write lock. */
    public void bookmarkNow(long revision) {
        if (revision < startRevision) {
            return;
        }
        lock.lock();
        try {
            if (ended) {
                return;
            }
            ObjectNode obj = JsonNodeFactory.instance.objectNode();
            obj.putObject("metadata").put("resourceVersion", Long.toString(revision));
            live.add(WatchEvent.of(WatchEvent.Type.BOOKMARK, obj));
            lastSentNanos = System.nanoTime();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void bookmarkIfIdle(long revision, long idleNanos) {
        if (!progressNotify || revision < startRevision) {
            return;
        }
        lock.lock();
        try {
            long now = System.nanoTime();
            if (ended || !backlog.isEmpty() || !live.isEmpty() || now - lastSentNanos < idleNanos) {
                return;
            }
            ObjectNode obj = JsonNodeFactory.instance.objectNode();
            obj.putObject("metadata").put("resourceVersion", Long.toString(revision));
            live.add(WatchEvent.of(WatchEvent.Type.BOOKMARK, obj));
            lastSentNanos = now;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Ends the stream with an ERROR event, dropping whatever was queued. */
    public void fail(StatusException error) {
        lock.lock();
        try {
            backlog.clear();
            live.clear();
            live.add(WatchEvent.error(error));
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Ends the stream after the queued events (the backend is going away). */
    /**
     * Ends the watch after what is queued, with a last BOOKMARK at {@code revision} for a watcher of
     * progress notifications: it has then seen everything up to that revision, so a watch of the
     * storage's next version (after a plugin update) can go on from there.
     */
    public void endAt(long revision) {
        lock.lock();
        try {
            if (!ended && progressNotify && revision >= startRevision) {
                ObjectNode obj = JsonNodeFactory.instance.objectNode();
                obj.putObject("metadata").put("resourceVersion", Long.toString(revision));
                live.add(WatchEvent.of(WatchEvent.Type.BOOKMARK, obj));
            }
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void end() {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public WatchEvent next(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        while (true) {
            Object item;
            lock.lock();
            try {
                while (true) {
                    item = backlog.isEmpty() ? live.poll() : backlog.poll();
                    if (item != null) {
                        break;
                    }
                    if (ended || remaining <= 0) {
                        return null;
                    }
                    remaining = changed.awaitNanos(remaining);
                }
            } finally {
                lock.unlock();
            }
            WatchEvent event = item instanceof WatchEvent ready ? ready : filter.transform((StoredEvent) item);
            if (event != null) {
                return event;
            }
        }
    }

    @Override
    public boolean done() {
        lock.lock();
        try {
            return ended && backlog.isEmpty() && live.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            ended = true;
            backlog.clear();
            live.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        onClose.accept(this);
    }
}
