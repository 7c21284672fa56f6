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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One watch over etcd's watch API. jetcd's event-loop thread hands it responses without waiting;
 * its consumer decodes and filters them in {@link #next}.
 * <p>
 * The watch keeps the revision of the last event it received and, when its etcd stream breaks
 * (etcd restarted, connection lost), opens a new one from the revision after it: every event is
 * delivered once and in order across outages, and a revision compacted meanwhile ends the stream
 * with a 410 {@code Expired} ERROR event, as kube-apiserver's etcd3 watcher does. (It does not
 * leave the resume to jetcd, which resumes from the stream's creation revision and can skip
 * events.) The queue is bounded: a consumer that falls that far behind has its watch ended, and
 * re-watches from the last revision it saw.
 */
final class EtcdWatch implements Watch {
    /** Opens an etcd watch from a revision, reporting to a listener. */
    @FunctionalInterface
    interface Starter {
        Watcher start(long fromRevision, Listener listener);
    }

    static final Duration RESTART_DELAY = Duration.ofMillis(500);
    private static final Logger LOG = LoggerFactory.getLogger(EtcdWatch.class);

    private final String description;
    private final WatchEventFilter filter;
    private final boolean progressNotify;
    private final int capacity;
    private final Starter starter;
    private final ScheduledExecutorService scheduler;
    private final Consumer<EtcdWatch> onClose;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Ready WatchEvents to deliver first: the initial state. */
    private final ArrayDeque<WatchEvent> backlog = new ArrayDeque<>();
    /** jetcd WatchEvents to transform, or ready WatchEvents (bookmarks, errors). */
    private final ArrayDeque<Object> live = new ArrayDeque<>();
    private boolean ended;
    private boolean closed;
    /** The revision of the last event received: a new stream starts after it. */
    private long lastRevision;
    /** Which etcd stream is current; callbacks of older ones are ignored. */
    private int generation;
    private Watcher watcher;
    private long lastActivityNanos = System.nanoTime();
    /** A progress request is outstanding: the next progress response is a BOOKMARK even without progressNotify. */
    private boolean progressRequested;
    /** Told once when an event is queued or the stream ends (Watch.onReady). */
    private Runnable readyListener;

    /** @param startRevision the revision the watch starts after: it sees events of later revisions */
    EtcdWatch(String description, WatchEventFilter filter, boolean progressNotify, int capacity, long startRevision,
              List<WatchEvent> initial, Starter starter, ScheduledExecutorService scheduler,
              Consumer<EtcdWatch> onClose) {
        this.description = description;
        this.filter = filter;
        this.progressNotify = progressNotify;
        this.capacity = capacity;
        this.lastRevision = startRevision;
        this.starter = starter;
        this.scheduler = scheduler;
        this.onClose = onClose;
        this.backlog.addAll(initial);
    }

    /** Opens a new etcd stream from the revision after the last one received. */
    void start() {
        int gen;
        long from;
        lock.lock();
        try {
            if (ended) {
                return;
            }
            gen = ++generation;
            from = lastRevision + 1;
        } finally {
            lock.unlock();
        }
        Watcher w;
        try {
            w = starter.start(from, new Stream(gen));
        } catch (RuntimeException e) {
            LOG.debug("watch {} cannot open an etcd stream from revision {}: {}", description, from, e.toString());
            restartLater(gen, e);
            return;
        }
        boolean current;
        lock.lock();
        try {
            current = gen == generation && !ended;
            if (current) {
                watcher = w;
            }
        } finally {
            lock.unlock();
        }
        if (!current) {
            closeQuietly(w);
        }
    }

    /** Asks etcd for a progress notification if this watch wants bookmarks and has been idle that long. */
    void requestProgressIfIdle(long idleNanos) {
        Watcher w;
        lock.lock();
        try {
            w = watcher;
            if (!progressNotify || w == null || ended || !live.isEmpty()
                    || System.nanoTime() - lastActivityNanos < idleNanos) {
                return;
            }
            lastActivityNanos = System.nanoTime();
        } finally {
            lock.unlock();
        }
        w.requestProgress();
    }

    /**
     * RequestWatchProgress: a BOOKMARK at etcd's current revision once every earlier event of this
     * watch has been delivered (etcd answers on the watch's own stream, in order). Ignored while
     * the stream is being reopened. (Watch.requestProgress of core-api 1.1.)
     */
    public void requestProgress() {
        Watcher w;
        lock.lock();
        try {
            w = watcher;
            if (w == null || ended) {
                return;
            }
            progressRequested = true;
        } finally {
            lock.unlock();
        }
        w.requestProgress();
    }

    /**
     * Calls {@code listener} once, on jetcd's thread, when an event is queued or the stream ends;
     * at once when one is already queued. (Watch.onReady of core-api 1.1.)
     */
    public boolean onReady(Runnable listener) {
        lock.lock();
        try {
            if (ended || !backlog.isEmpty() || !live.isEmpty()) {
                readyListener = null;
            } else {
                readyListener = listener;
                return true;
            }
        } finally {
            lock.unlock();
        }
        listener.run();
        return true;
    }

    /** The callbacks of one etcd stream (jetcd's event-loop thread: never block). */
    private final class Stream implements Listener {
        private final int gen;

        Stream(int gen) {
            this.gen = gen;
        }

        @Override
        public void onNext(WatchResponse response) {
            received(gen, response);
        }

        @Override
        public void onError(Throwable t) {
            if (EtcdErrors.isCompacted(t)) {
                long from = lastRevisionIf(gen);
                if (from >= 0) {
                    LOG.debug("watch {} from revision {} refused: compacted", description, from);
                    fail(ResourceVersions.tooOld(from));
                }
            } else {
                restartLater(gen, t);
            }
        }

        @Override
        public void onCompleted() {
            restartLater(gen, null);
        }
    }

    private void received(int gen, WatchResponse response) {
        List<Object> items = new ArrayList<>();
        boolean overflow;
        Runnable ready;
        lock.lock();
        try {
            if (gen != generation || ended) {
                return;
            }
            if (response.isProgressNotify()) {
                long rev = response.getHeader().getRevision();
                if ((progressNotify || progressRequested) && rev >= lastRevision) {
                    ObjectNode obj = JsonNodeFactory.instance.objectNode();
                    obj.putObject("metadata").put("resourceVersion", Long.toString(rev));
                    items.add(WatchEvent.of(WatchEvent.Type.BOOKMARK, obj));
                }
                lastRevision = Math.max(lastRevision, rev);
                progressRequested = false;
            } else {
                long batchFloor = lastRevision;
                for (io.etcd.jetcd.watch.WatchEvent e : response.getEvents()) {
                    long rev = e.getKeyValue().getModRevision();
                    if (rev > batchFloor) {
                        items.add(e);
                        lastRevision = Math.max(lastRevision, rev);
                    }
                }
            }
            if (items.isEmpty()) {
                return;
            }
            overflow = live.size() + items.size() > capacity;
            if (overflow) {
                LOG.info("watch {} ended: its consumer fell {} events behind", description, live.size());
                ended = true;
                live.clear();
            } else {
                live.addAll(items);
                lastActivityNanos = System.nanoTime();
            }
            ready = takeReadyListener();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (overflow) {
            detach();
        }
        notifyReady(ready);
    }

    /** The onReady listener, cleared; call under the lock and run it after. */
    private Runnable takeReadyListener() {
        Runnable r = readyListener;
        readyListener = null;
        return r;
    }

    private void notifyReady(Runnable r) {
        if (r != null) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.warn("watch {}: ready listener failed", description, e);
            }
        }
    }

    /** The stream of generation {@code gen} broke or ended: close it and open a new one shortly. */
    private void restartLater(int gen, Throwable why) {
        lock.lock();
        try {
            if (gen != generation || ended) {
                return;
            }
            generation++;
        } finally {
            lock.unlock();
        }
        LOG.debug("watch {} lost its etcd stream, resuming after revision {}: {}", description, lastRevisionIf(-1),
                why == null ? "stream ended" : EtcdErrors.describe(why));
        detach();
        try {
            scheduler.schedule(this::start, RESTART_DELAY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException backendStopped) {
            end();
        }
    }

    private long lastRevisionIf(int gen) {
        lock.lock();
        try {
            return gen < 0 || gen == generation ? lastRevision : -1;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the stream with an ERROR event, dropping whatever was queued. */
    void fail(StatusException error) {
        Runnable ready;
        lock.lock();
        try {
            if (ended) {
                return;
            }
            backlog.clear();
            live.clear();
            live.add(WatchEvent.error(error));
            ended = true;
            ready = takeReadyListener();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        detach();
        notifyReady(ready);
    }

    /** Ends the stream after the queued events (the backend is going away). */
    void end() {
        Runnable ready;
        lock.lock();
        try {
            ended = true;
            ready = takeReadyListener();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        detach();
        notifyReady(ready);
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
        Runnable ready;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            ended = true;
            backlog.clear();
            live.clear();
            ready = takeReadyListener();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        detach();
        onClose.accept(this);
        notifyReady(ready);
    }

    /** Closes the current etcd stream, if any. */
    private void detach() {
        Watcher w;
        lock.lock();
        try {
            w = watcher;
            watcher = null;
        } finally {
            lock.unlock();
        }
        closeQuietly(w);
    }

    private void closeQuietly(Watcher w) {
        if (w != null) {
            try {
                w.close();
            } catch (RuntimeException e) {
                LOG.debug("closing an etcd stream of watch {} failed", description, e);
            }
        }
    }
}
