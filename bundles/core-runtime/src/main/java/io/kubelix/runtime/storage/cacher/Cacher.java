package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ContinueToken;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Versioner;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.server.Lifecycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The Cacher: a storage.Interface decorator for one resource that keeps a watch cache fed by a
 * single watch on the backend (the reflector) and serves from it:
 * <ul>
 *   <li>writes go to the backend; an update or delete starts from the cached object, so the
 *       backend need not read it first (it reads only when the cached copy turns out stale);</li>
 *   <li>watches are served from the cache: from {@code ""}/{@code "0"} with the current state as
 *       ADDED events, from N with the window's events after N (410 Expired when N left the window;
 *       a watch from before the cache's list goes to the backend, which may still have N),
 *       and with {@code sendInitialEvents} ending the initial state with the
 *       {@code k8s.io/initial-events-end} bookmark;</li>
 *   <li>GET and LIST at {@code "0"} are served from the cache, once it holds the writes made
 *       through this Cacher (no request to the backend); at N once the cache reached N; a
 *       consistent GET ({@code ""}) from the backend; a consistent LIST from the cache once it has
 *       caught up with the backend's current revision; lists at a pinned revision (Exact,
 *       continue) from the cache while its window holds that revision (see {@link #getList}).</li>
 * </ul>
 * Watchers are indexed by the namespace directory they watch, so an event reaches only the
 * watchers of its namespace and the cluster-wide ones, and by the resource's indexed field when it
 * declares one ({@link #indexBy}). When the backend ends its watch (its bundle updated), the cache
 * watches again from its own revision and the watchers notice nothing; when the backend watch fails
 * (the backend fell behind, or cannot go on from that revision), every watcher is terminated and
 * the cache relists.
 */
public final class Cacher implements StorageInterface {
    private static final Logger LOG = LoggerFactory.getLogger(Cacher.class);
    private static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    private final StorageInterface storage;
    private final GroupResource groupResource;
    private final String prefix;
    private final CacherOptions options;
    private final WatchCache cache;
    /** Held while an event is applied and dispatched, and while a watcher starts, so none is missed or doubled. */
    private final Object dispatchLock = new Object();
    private final Map<String, IndexedWatchers> watchersByDir = new HashMap<>();
    /** Watchers waiting for a BOOKMARK at the revision the backend's next progress notification gives. */
    private final Queue<CacheWatcher> progressRequests = new ConcurrentLinkedQueue<>();
    /** The field watchers are indexed by, and how to read it from an object; null when none. Dispatch lock. */
    private IndexedTrigger trigger;
    private final Thread reflector;
    private volatile boolean ready;
    /** Notified when the cache has listed. */
    private final Object readiness = new Object();
    /** The reflector's watch on the backend, asked for progress when a reader waits for freshness. */
    private volatile Watch backendWatch;
    private volatile boolean stopped;
    private static final long BOOKMARK_TICK_NANOS = Duration.ofSeconds(1).toNanos();
    /** How often in a row the backend may end a watch before anything came on it, before the cache relists. */
    private static final int MAX_IDLE_RESUMES = 3;
    private long lastBookmarkCheck = System.nanoTime();
    private final LongAdder events = new LongAdder();
    private final LongAdder watchersStarted = new LongAdder();
    private final LongAdder slowWatchersTerminated = new LongAdder();
    private final LongAdder readsFromCache = new LongAdder();
    private final LongAdder readsFromStorage = new LongAdder();
    private final LongAdder relists = new LongAdder();
    /** The highest revision written through this Cacher: what a read at "0" waits for, so a client reads its own writes. */
    private final AtomicLong written = new AtomicLong();

    public Cacher(StorageInterface storage, GroupResource groupResource, String prefix, CacherOptions options) {
        this.storage = storage;
        this.groupResource = groupResource;
        this.prefix = prefix;
        this.options = options;
        this.cache = new WatchCache(options.eventWindow(), System::nanoTime);
        this.reflector = new Thread(this::run, "kubelix-cacher" + prefix.replace('/', '-'));
        this.reflector.setDaemon(true);
        this.reflector.start();
    }

    /** Stops the reflector and ends every watch. */
    public void stop() {
        stopped = true;
        reflector.interrupt();
        terminateAllWatchers();
    }

    // ---- the reflector: list, then watch from the list's revision; on any end, start over ----

    private void run() {
        long backoff = 100;
        while (!stopped) {
            try {
                listAndWatch();
                backoff = 100;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (StatusException e) {
                // 503: the backend's bundle is not (yet) there; the storage factory's readiness check says so.
                if (!stopped) {
                    LOG.debug("watch cache {}: {}; relisting in {} ms", groupResource, e.getMessage(), backoff);
                }
            } catch (RuntimeException e) {
                // While the server stops, the backend ending every watch is the shutdown, not news.
                if (!stopped && !Lifecycle.stopping()) {
                    LOG.info("watch cache {}: {}; relisting in {} ms", groupResource, e.getMessage(), backoff);
                } else if (!stopped) {
                    LOG.debug("watch cache {}: {}; relisting in {} ms", groupResource, e.getMessage(), backoff);
                }
            }
            ready = false;
            terminateAllWatchers();
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(backoff * 2, 2_000);
        }
    }

    private void listAndWatch() throws InterruptedException {
        ListResult list = storage.getList(prefix, ListOptions.recursiveAll());
        relists.increment();
        synchronized (dispatchLock) {
            cache.replace(list.items(), list.resourceVersion(), this::keyOf);
        }
        synchronized (readiness) {
            ready = true;
            readiness.notifyAll();
        }
        LOG.debug("watch cache {} ready at resourceVersion {} with {} objects", groupResource, list.resourceVersion(),
                list.items().size());
        long from = list.resourceVersion();
        int idleResumes = 0;
        while (!stopped) {
            boolean progressed = watchFrom(from);
            if (stopped) {
                return;
            }
            // The backend ended the watch without an error (its bundle was updated, its connection
            // moved): watch again from where the cache is, so the watchers notice nothing. A backend
            // that cannot go on from there answers an error (410), and only then the cache relists,
            // which ends the watchers. One that keeps ending watches at once is relisted too.
            idleResumes = progressed ? 0 : idleResumes + 1;
            if (idleResumes > MAX_IDLE_RESUMES) {
                throw new IllegalStateException("the backend ended the watch");
            }
            from = cache.resourceVersion();
            LOG.debug("watch cache {}: the backend ended the watch; watching again from resourceVersion {}",
                    groupResource, from);
        }
    }

    /**
     * Watches the backend from {@code resourceVersion} until it ends the watch (returning whether
     * anything came meanwhile) or fails (throwing).
     */
    private boolean watchFrom(long resourceVersion) throws InterruptedException {
        ListOptions watchFrom = new ListOptions(Long.toString(resourceVersion), ResourceVersionMatch.UNSET,
                null, true, 0, null, true);
        boolean progressed = false;
        try (Watch w = storage.watch(prefix, watchFrom)) {
            backendWatch = w;
            while (!stopped) {
                WatchEvent e = w.next(Duration.ofSeconds(1));
                if (e == null) {
                    if (w.done()) {
                        return progressed;
                    }
                } else if (e.type() == WatchEvent.Type.ERROR) {
                    throw new IllegalStateException("the backend watch failed: " + e.error().getMessage());
                } else if (e.type() == WatchEvent.Type.BOOKMARK) {
                    progressed = true;
                    cache.bookmark(storage.versioner().objectResourceVersion(e.object()));
                    answerProgressRequests();
                } else {
                    progressed = true;
                    dispatch(e);
                }
                sendBookmarksIfDue();
            }
        }
        return progressed;
    }

    /**
     * kube's dispatchEvent: the event enters the cache and the watchers it concerns are chosen under
     * the dispatch lock (so a watcher starting meanwhile gets it either from the cache or from here,
     * never both); it is offered to them after the lock is released, so a slow watcher waiting out
     * its budget holds up neither new watches nor closing ones. Only the reflector's thread
     * dispatches, so each watcher still gets events in order.
     */
    private void dispatch(WatchEvent e) throws InterruptedException {
        WatchCacheEvent ce;
        List<CacheWatcher> targets;
        synchronized (dispatchLock) {
            ce = cache.process(e.type(), keyOf(e.object()), e.object());
            events.increment();
            targets = interestedWatchers(ce);
        }
        long budget = options.slowWatcherGrace().toNanos();
        for (CacheWatcher w : targets) {
            WatchEvent converted = w.convert(ce);
            if (converted == null) {
                continue;
            }
            long spent = w.offer(converted, budget);
            if (spent < 0) {
                slowWatchersTerminated.increment();
                LOG.warn("watch cache {}: terminated a watcher of {} that fell {} events behind", groupResource,
                        w.dir, options.watcherBufferSize());
                remove(w);
            } else {
                budget = Math.max(0, budget - spent);
            }
        }
    }

    /**
     * Answers the watchers that asked for progress ({@link CacheWatcher#requestProgress}) with a
     * BOOKMARK at the cache's revision, behind every event dispatched up to it; called by the
     * reflector's thread after the backend's progress notification moved that revision.
     */
    private void answerProgressRequests() {
        if (progressRequests.isEmpty()) {
            return;
        }
        long rv = cache.resourceVersion();
        CacheWatcher w;
        while ((w = progressRequests.poll()) != null) {
            w.offerBookmark(rv);
        }
    }

    /** A watcher asks for a BOOKMARK at the current revision: the backend is asked for its progress first. */
    private void requestProgress(CacheWatcher w) {
        progressRequests.add(w);
        Watch backend = backendWatch;
        if (backend != null) {
            backend.requestProgress();
        }
    }

    /**
     * Once a second (kube's bookmark timer), gives a BOOKMARK to each watcher that asked for them and
     * is due one: every bookmark interval, and shortly before its deadline.
     */
    private void sendBookmarksIfDue() {
        long now = System.nanoTime();
        if (now - lastBookmarkCheck < BOOKMARK_TICK_NANOS) {
            return;
        }
        lastBookmarkCheck = now;
        synchronized (dispatchLock) {
            long rv = cache.resourceVersion();
            watchersByDir.values().forEach(ws -> ws.forEach(w -> w.bookmarkIfDue(now, rv, options.bookmarkInterval())));
        }
    }

    /**
     * The watchers of the event's namespace directory and of the whole resource; of those indexed by
     * the resource's indexed field, only the ones of the object's new or old value.
     */
    private List<CacheWatcher> interestedWatchers(WatchCacheEvent e) {
        List<String> values = triggerValues(e);
        List<CacheWatcher> out = new ArrayList<>();
        IndexedWatchers all = watchersByDir.get(prefix);
        if (all != null) {
            all.addInterested(out, values);
        }
        int slash = e.key.lastIndexOf('/');
        String dir = slash > 0 ? e.key.substring(0, slash) : e.key;
        if (!dir.equals(prefix)) {
            IndexedWatchers ns = watchersByDir.get(dir);
            if (ns != null) {
                ns.addInterested(out, values);
            }
        }
        return out;
    }

    /** The indexed field's value in the event's object and, when it differs, in its previous one (kube's triggerValues). */
    private List<String> triggerValues(WatchCacheEvent e) {
        if (trigger == null) {
            return null;
        }
        String now = trigger.valueOf(e.object);
        if (e.prevObject == null) {
            return List.of(now);
        }
        String before = trigger.valueOf(e.prevObject);
        return before.equals(now) ? List.of(now) : List.of(now, before);
    }

    private void remove(CacheWatcher w) {
        synchronized (dispatchLock) {
            IndexedWatchers ws = watchersByDir.get(w.dir);
            if (ws != null && ws.remove(w) && ws.isEmpty()) {
                watchersByDir.remove(w.dir);
            }
        }
    }

    /**
     * Indexes watchers by {@code field}, read from objects by {@code value} (kube's indexed trigger): an
     * event then reaches the watchers whose field selector requires its object's old or new value, and
     * those without such a requirement. A resource declares it ({@code StoreSpec.indexedField}); null
     * removes the index. Watchers indexed by another field before see every event from now on.
     */
    public void indexBy(String field, Function<ObjectNode, String> value) {
        synchronized (dispatchLock) {
            IndexedTrigger next = field == null ? null : new IndexedTrigger(field, value);
            if (trigger != null && (next == null || !trigger.field().equals(field))) {
                watchersByDir.values().forEach(IndexedWatchers::unindex);
            }
            trigger = next;
        }
    }

    /**
     * Removes the index if {@code value} (as given to {@link #indexBy}) still reads it: the resource
     * that declared it is no longer served, and its plugin's code must not be kept or called. An
     * index another revision of the plugin has set since stays.
     */
    public void unindex(Function<ObjectNode, String> value) {
        synchronized (dispatchLock) {
            if (trigger != null && trigger.value() == value) {
                watchersByDir.values().forEach(IndexedWatchers::unindex);
                trigger = null;
            }
        }
    }

    /** The field watchers are indexed by, or null. */
    public String indexedField() {
        synchronized (dispatchLock) {
            return trigger == null ? null : trigger.field();
        }
    }

    private record IndexedTrigger(String field, Function<ObjectNode, String> value) {
        String valueOf(ObjectNode o) {
            String v = value.apply(o);
            return v == null ? "" : v;
        }
    }

    private void terminateAllWatchers() {
        List<CacheWatcher> all = new ArrayList<>();
        synchronized (dispatchLock) {
            watchersByDir.values().forEach(ws -> ws.forEach(all::add));
            watchersByDir.clear();
        }
        all.forEach(CacheWatcher::stop);
    }

    /** Objects are stored at {@code <prefix>/<namespace>/<name>} or {@code <prefix>/<name>}, as the generic Store keys them. */
    private String keyOf(ObjectNode obj) {
        String ns = obj.path("metadata").path("namespace").asText("");
        String name = obj.path("metadata").path("name").asText("");
        return ns.isEmpty() ? prefix + "/" + name : prefix + "/" + ns + "/" + name;
    }

    // ---- watch ----

    @Override
    public Watch watch(String key, ListOptions opts) {
        if (!opts.recursive() || !ready) {
            return storage.watch(key, opts);
        }
        long requested = storage.versioner().parseResourceVersion(opts.resourceVersion());
        boolean initialEvents = opts.sendInitialEvents() != null ? opts.sendInitialEvents() : requested == 0;
        if (requested > 0) {
            awaitFresh(requested);
        } else if (opts.resourceVersion().isEmpty()) {
            // "Start at most recent": the initial state must include every acknowledged write.
            awaitFresh(storage.currentResourceVersion());
        } else {
            // "0": any state will do; one with this server's own writes costs no request to the backend.
            awaitOwnWrites();
        }

        boolean olderThanWindow = false;
        synchronized (dispatchLock) {
            long start;
            List<WatchEvent> initial = new ArrayList<>();
            if (initialEvents) {
                WatchCache.Snapshot snap = cache.list(key, opts.predicate());
                start = snap.resourceVersion();
                for (StoreElement e : snap.items()) {
                    initial.add(new WatchEvent(WatchEvent.Type.ADDED, e.object, null, e.json));
                }
                if (opts.sendInitialEvents() != null && opts.sendInitialEvents()) {
                    ObjectNode end = CacheWatcher.bookmarkObject(start);
                    ((ObjectNode) end.path("metadata")).putObject("annotations").put(INITIAL_EVENTS_END, "true");
                    initial.add(WatchEvent.of(WatchEvent.Type.BOOKMARK, end));
                }
            } else {
                start = requested;
            }
            CacheWatcher w = new CacheWatcher(key, opts.predicate(), opts.progressNotify(), start,
                    options.watcherBufferSize(), opts.timeout(), options.bookmarkInterval(), this::remove,
                    this::requestProgress);
            initial.forEach(w::addInitial);
            if (!initialEvents) {
                List<WatchCacheEvent> since = cache.eventsAfterIfRetained(requested);
                if (since == null) {
                    // From before the cache's list (it started, or restarted, after N): the backend
                    // may still have N; it serves the watch or answers 410 itself.
                    olderThanWindow = true;
                } else {
                    for (WatchCacheEvent e : since) {
                        if (e.key.startsWith(key + "/")) {
                            WatchEvent converted = w.convert(e);
                            if (converted != null) {
                                w.addInitial(converted);
                            }
                        }
                    }
                }
            }
            if (!olderThanWindow) {
                w.triggerValue = trigger == null ? null : opts.predicate().requiredFieldValue(trigger.field());
                watchersByDir.computeIfAbsent(key, k -> new IndexedWatchers()).add(w);
                watchersStarted.increment();
                return w;
            }
        }
        return storage.watch(key, opts);
    }

    // ---- reads ----

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        // A consistent GET is one read of the backend, as kube's: asking its revision first costs as much.
        if (opts.resourceVersion().isEmpty() || !servableFromCache(opts.resourceVersion(), ResourceVersionMatch.UNSET)) {
            readsFromStorage.increment();
            return storage.get(key, opts);
        }
        readsFromCache.increment();
        ObjectNode o = cache.get(key);
        if (o == null) {
            if (opts.ignoreNotFound()) {
                return null;
            }
            throw StorageException.keyNotFound(key);
        }
        return o.deepCopy();
    }

    /**
     * Where a list is served (kube 1.32's delegator rules, plus 1.33's ListFromCacheSnapshot for
     * pinned revisions):
     * <ul>
     *   <li>before the cache has listed: from the backend, except a list at {@code "0"}, which waits
     *       (at most the freshness timeout) for the cache to list first: the server's informers list
     *       so as they start, and one served by the backend would keep a second copy of each object;</li>
     *   <li>{@code "0"}: from the cache, whole ({@code limit} is ignored, as kube does);</li>
     *   <li>{@code ""} (consistent) and {@code N} NotOlderThan: from the cache once it has caught up,
     *       paged by {@code limit};</li>
     *   <li>a pinned revision (a continue token's, Exact N, or N with a limit and no match, the
     *       legacy exact read): from the cache while its window still holds that revision and the
     *       backend has not compacted it (410 then, as the backend answers), else from the backend,
     *       which serves it or answers 410.</li>
     * </ul>
     * Continue tokens are the backend's ({@link ContinueToken}), so the pages of one list may come
     * from either, and every page reads the same revision.
     */
    @Override
    public ListResult getList(String key, ListOptions opts) {
        String rv = opts.resourceVersion();
        boolean anyState = rv.equals("0") && (opts.continueToken() == null || opts.continueToken().isEmpty());
        if (!opts.recursive() || !ready && !(anyState && awaitReady())) {
            return fromStorage(key, opts);
        }
        if (opts.continueToken() != null && !opts.continueToken().isEmpty()) {
            ContinueToken token = ContinueToken.decode(opts.continueToken());
            return token.latest() ? current(key, opts, key + "/" + token.start())
                    : pinned(key, opts, token.revision(), key + "/" + token.start());
        }
        boolean legacyExact = opts.resourceVersionMatch() == ResourceVersionMatch.UNSET && opts.limit() > 0
                && !rv.isEmpty() && !rv.equals("0");
        if (opts.resourceVersionMatch() == ResourceVersionMatch.EXACT || legacyExact) {
            long exact = storage.versioner().parseResourceVersion(rv);
            return exact <= 0 ? fromStorage(key, opts) : pinned(key, opts, exact, null);
        }
        if (!servableFromCache(rv, opts.resourceVersionMatch())) {
            return fromStorage(key, opts);
        }
        long at = cache.resourceVersion();
        ListPage page = cache.listAt(key, at, null, opts.predicate(), rv.equals("0") ? 0 : opts.limit());
        return page == null ? fromStorage(key, opts) : fromCache(key, at, page, opts);
    }

    /**
     * The rest of a list at the current revision, from {@code from} (the token a 410 for an expired
     * continue token offers): from the cache once it has caught up, as a consistent list.
     */
    private ListResult current(String key, ListOptions opts, String from) {
        if (!servableFromCache("", ResourceVersionMatch.UNSET)) {
            return fromStorage(key, opts);
        }
        long at = cache.resourceVersion();
        ListPage page = cache.listAt(key, at, from, opts.predicate(), opts.limit());
        return page == null ? fromStorage(key, opts) : fromCache(key, at, page, opts);
    }

    /** A list at revision {@code rv}, from the cache while it holds that revision. */
    private ListResult pinned(String key, ListOptions opts, long rv, String from) {
        // A revision the cache has not reached yet is waited for only when the backend has it.
        boolean reachable = rv > cache.resourceVersion() && rv <= storage.currentResourceVersion() && awaitFreshQuietly(rv);
        if (reachable || cache.retains(rv)) {
            if (rv < storage.currentResourceVersion()) {
                // The backend decides whether rv may still be read (etcd compacts on its own schedule, as
                // kube's cache drops snapshots older than etcd's compaction): a one-item read of the same
                // request answers its 410 (a continue token's, or Exact's) when it may not.
                storage.getList(key, new ListOptions(opts.resourceVersion(), opts.resourceVersionMatch(),
                        SelectionPredicate.EVERYTHING, true, 1, opts.continueToken(), false));
            }
            ListPage page = cache.listAt(key, rv, from, opts.predicate(), opts.limit());
            if (page != null) {
                return fromCache(key, rv, page, opts);
            }
        }
        return fromStorage(key, opts);
    }

    private ListResult fromStorage(String key, ListOptions opts) {
        readsFromStorage.increment();
        return storage.getList(key, opts);
    }

    private ListResult fromCache(String key, long rv, ListPage page, ListOptions opts) {
        readsFromCache.increment();
        boolean more = page.remaining() > 0;
        String next = more ? ContinueToken.after(key, rv, page.lastKey()).encode() : null;
        return listResult(page.items(), rv, next, more && opts.predicate().matchesEverything() ? page.remaining() : null);
    }

    /**
     * A list of shared objects: each is copied only when read, and its encoding goes along; both are
     * views of the page, so a large list is not copied again per request.
     */
    private static ListResult listResult(List<StoreElement> items, long rv, String continueToken, Long remaining) {
        return new ListResult(new CopyOnReadList(items), rv, continueToken, remaining, new EncodingList(items));
    }

    /** Counted by the backend, as kube-apiserver's Count is: it must reflect every acknowledged write. */
    @Override
    public long count(String key) {
        return storage.count(key);
    }

    /**
     * Whether a read at {@code rv} may come from the cache: "0" always (when ready), "N" once the
     * cache reached N, "" (consistent) when the cache has caught up with the backend's revision.
     */
    private boolean servableFromCache(String rv, ResourceVersionMatch match) {
        if (!ready || match == ResourceVersionMatch.EXACT) {
            return false;
        }
        if (rv.equals("0")) {
            awaitOwnWrites();
            return true;
        }
        long wanted = rv.isEmpty() ? storage.currentResourceVersion() : storage.versioner().parseResourceVersion(rv);
        return awaitFreshQuietly(wanted);
    }

    /** Waits (at most the freshness timeout) until the cache has listed; whether it has. */
    private boolean awaitReady() {
        long deadline = System.nanoTime() + options.freshnessTimeout().toNanos();
        synchronized (readiness) {
            while (!ready && !stopped) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    readiness.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return ready;
        }
    }

    private void awaitFresh(long rv) {
        if (rv > 0 && !awaitFreshQuietly(rv)) {
            throw StatusException.timeout("Too large resource version: " + rv + ", current: " + cache.resourceVersion());
        }
    }

    /**
     * Waits (briefly) until the cache holds every write made through this Cacher, which its own
     * watch delivers: no request to the backend, unlike waiting for the backend's current revision.
     */
    private void awaitOwnWrites() {
        long rv = written.get();
        if (cache.resourceVersion() >= rv) {
            return;
        }
        try {
            cache.waitUntilFresh(rv, options.freshnessTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean awaitFreshQuietly(long rv) {
        if (cache.resourceVersion() >= rv) {
            return true;
        }
        Watch w = backendWatch;
        if (w != null) {
            w.requestProgress();
        }
        try {
            return cache.waitUntilFresh(rv, options.freshnessTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    // ---- writes go to the backend ----

    @Override
    public Versioner versioner() {
        return storage.versioner();
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        return wrote(storage.create(key, obj));
    }

    /** kube's Cacher.Delete: the backend gets a copy of the cached object to start from. */
    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        return wrote(storage.delete(key, preconditions, validateDeletion, cachedCopy(key)));
    }

    /** kube's Cacher.GuaranteedUpdate: the backend gets a copy of the cached object to start from. */
    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate) {
        return wrote(storage.guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate, cachedCopy(key)));
    }

    /** A copy of the cached object at {@code key}, or null when the cache has none (or has not listed yet). */
    private ObjectNode cachedCopy(String key) {
        ObjectNode cached = ready ? cache.get(key) : null;
        return cached == null ? null : cached.deepCopy();
    }

    private ObjectNode wrote(ObjectNode result) {
        long rv = storage.versioner().objectResourceVersion(result);
        written.accumulateAndGet(rv, Math::max);
        return result;
    }

    @Override
    public long currentResourceVersion() {
        return storage.currentResourceVersion();
    }

    /** The counters kept for metrics. */
    public CacherStats stats() {
        long open;
        synchronized (dispatchLock) {
            open = watchersByDir.values().stream().mapToLong(IndexedWatchers::size).sum();
        }
        return new CacherStats(events.sum(), open, watchersStarted.sum(), slowWatchersTerminated.sum(),
                readsFromCache.sum(), readsFromStorage.sum(), relists.sum(), cache.resourceVersion(), cache.capacity(),
                ready ? cache.objects() : -1);
    }

    public GroupResource groupResource() {
        return groupResource;
    }

    /** The objects the cache holds, -1 before it has listed: what priority and fairness estimates LISTs by. */
    public long objectCount() {
        return ready ? cache.objects() : -1;
    }

    /** Whether the cache has listed and is following the backend (for tests and status). */
    public boolean ready() {
        return ready;
    }
}
