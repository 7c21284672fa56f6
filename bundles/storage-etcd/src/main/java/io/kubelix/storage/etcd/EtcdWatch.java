package io.kubelix.storage.etcd;

import io.kubelix.api.storage.StorageErrors;
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

    /**
     * Whether no key of the watch's range changed in the revisions {@code (after, upTo]}: etcd
     * asked, not trusted (see {@link #received}). May block; false when it cannot tell.
     */
    @FunctionalInterface
    interface ProgressCheck {
        boolean unchanged(long after, long upTo);
    }

    static final Duration RESTART_DELAY = Duration.ofMillis(500);
    /** How soon a progress request is repeated when etcd's answer came before the watch's events. */
    static final Duration PROGRESS_RETRY_DELAY = Duration.ofMillis(50);
    /** How often, at most, one progress request is repeated so. */
    static final int PROGRESS_RETRIES = 40;
    private static final Logger LOG = LoggerFactory.getLogger(EtcdWatch.class);

    private final String description;
    private final WatchEventFilter filter;
    private final boolean progressNotify;
    private final int capacity;
    private final Starter starter;
    private final ProgressCheck progressCheck;
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
    /**
     * The revision of the last event received, or of a progress notification checked to follow
     * every event before it: a new stream starts after it, and events up to it are not delivered again.
     */
    private long lastRevision;
    /** Which etcd stream is current; callbacks of older ones are ignored. */
    private int generation;
    private Watcher watcher;
    private long lastActivityNanos = System.nanoTime();
    /** A progress request is outstanding: the next progress response is a BOOKMARK even without progressNotify. */
    private boolean progressRequested;
    /** A progress notification's revision is being checked (on the scheduler); others wait for the result. */
    private boolean progressChecking;
    /**
     * The highest revision of the progress notifications that came while a check was running:
     * checked next, so that a reader waiting for a newer revision than the one being checked is
     * answered by its own request, not by the next idle tick or its timeout.
     */
    private long progressPending;
    /** How often the outstanding progress request has been repeated. */
    private int progressRetries;
    /** Told once when an event is queued or the stream ends (Watch.onReady). */
    private Runnable readyListener;

    /** @param startRevision the revision the watch starts after: it sees events of later revisions */
    EtcdWatch(String description, WatchEventFilter filter, boolean progressNotify, int capacity, long startRevision,
              List<WatchEvent> initial, Starter starter, ProgressCheck progressCheck, ScheduledExecutorService scheduler,
              Consumer<EtcdWatch> onClose) {
        this.description = description;
        this.filter = filter;
        this.progressNotify = progressNotify;
        this.capacity = capacity;
        this.lastRevision = startRevision;
        this.starter = starter;
        this.progressCheck = progressCheck;
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
            progressRetries = 0;
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
                    fail(StorageErrors.tooOldResourceVersion(from));
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
                // etcd before 3.4.31 and 3.5.13 (etcd-io/etcd#15220) answers a progress request at once
                // with its current revision, even while this watch's events up to it are still being
                // sent (a watch that started from an older revision). Trusting it would deliver a
                // BOOKMARK ahead of events, and drop those events as already seen. So the revision
                // counts only once etcd confirms that nothing in the watched range changed since the
                // last event; the check runs on the scheduler, never on jetcd's thread.
                long rev = response.getHeader().getRevision();
                if (rev > lastRevision && !progressChecking) {
                    progressChecking = true;
                    long after = lastRevision;
                    scheduleQuietly(() -> checkProgress(gen, after, rev), 0);
                } else if (rev > lastRevision) {
                    progressPending = Math.max(progressPending, rev);
                } else if (rev == lastRevision && (progressNotify || progressRequested)) {
                    items.add(bookmark(rev));
                    progressRequested = false;
                }
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

    private static WatchEvent bookmark(long rev) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.putObject("metadata").put("resourceVersion", Long.toString(rev));
        return WatchEvent.of(WatchEvent.Type.BOOKMARK, obj);
    }

    /**
     * On the scheduler: a progress notification said etcd is at {@code rev}, and the last event
     * was at {@code after}. If etcd confirms that the range did not change in between, the watch
     * has seen everything up to {@code rev}: a BOOKMARK (when wanted), and the stream resumes after
     * it. Otherwise the events are still coming: the progress request, if any, is repeated shortly.
     * A newer notification that came meanwhile is checked next.
     */
    private void checkProgress(int gen, long after, long rev) {
        boolean unchanged;
        try {
            unchanged = progressCheck.unchanged(after, rev);
        } catch (RuntimeException e) {
            LOG.debug("watch {}: cannot check progress ({}, {}]: {}", description, after, rev, e.toString());
            unchanged = false;
        }
        boolean retry = false;
        long next = 0;
        long nextAfter = 0;
        Runnable ready = null;
        lock.lock();
        try {
            progressChecking = false;
            long pending = progressPending;
            progressPending = 0;
            if (gen != generation || ended) {
                return;
            }
            boolean checked = unchanged && lastRevision == after;
            if (checked) {
                lastRevision = rev;
                if (progressNotify || progressRequested) {
                    live.add(bookmark(rev));
                    lastActivityNanos = System.nanoTime();
                    ready = takeReadyListener();
                    changed.signalAll();
                }
            }
            if (pending > lastRevision) {
                // The request this newer answer belongs to stays outstanding until it is checked too.
                progressChecking = true;
                next = pending;
                nextAfter = lastRevision;
            } else if (checked) {
                progressRequested = false;
            } else if (progressRequested && progressRetries < PROGRESS_RETRIES) {
                progressRetries++;
                retry = true;
            }
        } finally {
            lock.unlock();
        }
        notifyReady(ready);
        if (next > 0) {
            long upTo = next;
            long from = nextAfter;
            scheduleQuietly(() -> checkProgress(gen, from, upTo), 0);
        }
        if (retry) {
            scheduleQuietly(this::repeatProgressRequest, PROGRESS_RETRY_DELAY.toMillis());
        }
    }

    private void repeatProgressRequest() {
        Watcher w;
        lock.lock();
        try {
            w = watcher;
            if (w == null || ended || !progressRequested) {
                return;
            }
        } finally {
            lock.unlock();
        }
        w.requestProgress();
    }

    private void scheduleQuietly(Runnable task, long delayMillis) {
        try {
            scheduler.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException backendStopped) {
            lock.lock();
            try {
                progressChecking = false;
            } finally {
                lock.unlock();
            }
        }
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
