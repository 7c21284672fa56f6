package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcd.jetcd.Watch.Listener;
import io.etcd.jetcd.Watch.Watcher;
import io.etcd.jetcd.watch.WatchResponse;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One watch over etcd's watch API. jetcd's event-loop thread hands it responses without waiting
 * ({@link Listener}); its consumer decodes and filters them in {@link #next}. jetcd resumes a
 * broken stream by itself from the revision after the last event, so a lost connection only
 * pauses the stream; a compacted start revision ends it with a 410 {@code Expired} ERROR event. The
 * queue is bounded: a consumer that falls that far behind has its watch ended, and re-watches
 * from the last revision it saw.
 */
final class EtcdWatch implements Watch, Listener {
    private static final Logger LOG = LoggerFactory.getLogger(EtcdWatch.class);

    private final String description;
    private final WatchEventFilter filter;
    private final boolean progressNotify;
    private final int capacity;
    private final long startRevision;
    private final Consumer<EtcdWatch> onClose;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Ready WatchEvents to deliver first: the initial state. */
    private final ArrayDeque<WatchEvent> backlog = new ArrayDeque<>();
    /** jetcd WatchEvents to transform, or ready WatchEvents (bookmarks, errors). */
    private final ArrayDeque<Object> live = new ArrayDeque<>();
    private boolean ended;
    private boolean closed;
    private long lastActivityNanos = System.nanoTime();
    private volatile Watcher watcher;

    /**
     * @param startRevision the revision the watch starts after: it sees events of later revisions
     */
    EtcdWatch(String description, WatchEventFilter filter, boolean progressNotify, int capacity, long startRevision,
              List<WatchEvent> initial, Consumer<EtcdWatch> onClose) {
        this.description = description;
        this.filter = filter;
        this.progressNotify = progressNotify;
        this.capacity = capacity;
        this.startRevision = startRevision;
        this.onClose = onClose;
        this.backlog.addAll(initial);
    }

    /** Attaches the etcd watcher feeding this watch; closes it at once if the watch is already closed. */
    void attach(Watcher w) {
        watcher = w;
        boolean isClosed;
        lock.lock();
        try {
            isClosed = closed;
        } finally {
            lock.unlock();
        }
        if (isClosed) {
            w.close();
        }
    }

    boolean progressNotify() {
        return progressNotify;
    }

    /** Asks etcd for a progress notification if this watch wants bookmarks and has been idle that long. */
    void requestProgressIfIdle(long idleNanos) {
        Watcher w = watcher;
        if (!progressNotify || w == null) {
            return;
        }
        lock.lock();
        try {
            if (ended || !live.isEmpty() || System.nanoTime() - lastActivityNanos < idleNanos) {
                return;
            }
            lastActivityNanos = System.nanoTime();
        } finally {
            lock.unlock();
        }
        w.requestProgress();
    }

    // ---- jetcd's side (its event-loop thread: never block)

    @Override
    public void onNext(WatchResponse response) {
        if (response.isProgressNotify()) {
            if (progressNotify) {
                ObjectNode obj = JsonNodeFactory.instance.objectNode();
                obj.putObject("metadata").put("resourceVersion", Long.toString(response.getHeader().getRevision()));
                enqueue(List.of(WatchEvent.of(WatchEvent.Type.BOOKMARK, obj)));
            }
            return;
        }
        if (!response.getEvents().isEmpty()) {
            enqueue(response.getEvents());
        }
    }

    @Override
    public void onError(Throwable t) {
        if (EtcdErrors.isCompacted(t)) {
            LOG.debug("watch {} from revision {} refused: compacted", description, startRevision);
            fail(ResourceVersions.tooOld(startRevision));
        } else {
            LOG.debug("watch {} interrupted, etcd client resumes it: {}", description, EtcdErrors.describe(t));
        }
    }

    @Override
    public void onCompleted() {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void enqueue(List<?> items) {
        lock.lock();
        try {
            if (ended) {
                return;
            }
            if (live.size() + items.size() > capacity) {
                LOG.info("watch {} ended: its consumer fell {} events behind", description, live.size());
                ended = true;
                live.clear();
                changed.signalAll();
                return;
            }
            live.addAll(items);
            lastActivityNanos = System.nanoTime();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (ended) {
            closeWatcher();
        }
    }

    /** Ends the stream with an ERROR event, dropping whatever was queued. */
    void fail(StatusException error) {
        lock.lock();
        try {
            if (ended && closed) {
                return;
            }
            backlog.clear();
            live.clear();
            live.add(WatchEvent.error(error));
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- the consumer's side

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
            WatchEvent event = item instanceof WatchEvent ready ? ready
                    : filter.transform((io.etcd.jetcd.watch.WatchEvent) item);
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
            if (closed) {
                return;
            }
            closed = true;
            ended = true;
            backlog.clear();
            live.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        closeWatcher();
        onClose.accept(this);
    }

    private void closeWatcher() {
        Watcher w = watcher;
        if (w != null) {
            try {
                w.close();
            } catch (RuntimeException e) {
                LOG.debug("closing etcd watcher of {} failed", description, e);
            }
        }
    }
}
