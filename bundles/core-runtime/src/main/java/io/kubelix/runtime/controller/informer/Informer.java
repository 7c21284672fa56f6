package io.kubelix.runtime.controller.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.GenericNamespaceLister;
import io.kubelix.api.informer.IndexFunc;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.controller.ServedResources;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link SharedIndexInformer} (client-go's {@code sharedIndexInformer}): a {@link Reflector} feeds
 * its cache, and every change applied to the cache is queued to each handler's
 * {@link ProcessorListener} under the same lock, so handlers see changes in the cache's order and
 * a handler added later sees the cache's state followed by every change after it.
 */
final class Informer implements SharedIndexInformer {
    private final GroupVersionResource resource;
    private final Executor handlerThreads;
    private final ScheduledExecutorService timers;
    private final Reflector reflector;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Indexer cache = new Indexer();
    private final List<ProcessorListener> listeners = new ArrayList<>();
    private final CountDownLatch synced = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile String lastSyncResourceVersion = "";
    /** Notified when {@link #lastSyncResourceVersion} moves, for {@link #awaitObserved}. */
    private final Object progress = new Object();
    private volatile int progressWaiters;
    /** How often a wait for a revision asks the watch for progress again (a bookmark may be dropped). */
    private static final long PROGRESS_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    Informer(GroupVersionResource resource, ServedResources served, Executor handlerThreads,
             ScheduledExecutorService timers) {
        this.resource = resource;
        this.handlerThreads = handlerThreads;
        this.timers = timers;
        this.reflector = new Reflector(resource, served, this);
        cache.addIndexers(Map.of(NAMESPACE_INDEX, obj -> List.of(obj.path("metadata").path("namespace").asText(""))));
    }

    void start() {
        reflector.start();
    }

    /** Stops following the resource; handlers get nothing more. */
    void stop() {
        reflector.stop();
        lock.writeLock().lock();
        try {
            listeners.forEach(ProcessorListener::close);
            listeners.clear();
        } finally {
            lock.writeLock().unlock();
        }
        stopped.countDown();
    }

    @Override
    public GroupVersionResource resource() {
        return resource;
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler) {
        return addEventHandler(handler, Duration.ZERO);
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler, Duration resyncPeriod) {
        if (resyncPeriod.isNegative()) {
            throw new IllegalArgumentException("negative resync period " + resyncPeriod);
        }
        ProcessorListener listener = new ProcessorListener(resource, handler, resyncPeriod, handlerThreads);
        lock.writeLock().lock();
        try {
            if (stopped.getCount() == 0) {
                listener.close();
            } else {
                if (hasSynced()) {
                    cache.list().forEach(obj -> listener.add(obj, true));
                    listener.initialListQueued();
                }
                listeners.add(listener);
            }
        } finally {
            lock.writeLock().unlock();
        }
        ScheduledFuture<?> resync = resyncPeriod.isZero() ? null : timers.scheduleAtFixedRate(() -> resync(listener),
                resyncPeriod.toNanos(), resyncPeriod.toNanos(), TimeUnit.NANOSECONDS);
        return new Registration(listener, resync);
    }

    /** One handler's registration; it can also say when the handler has been told of a revision. */
    final class Registration implements ResourceEventHandlerRegistration {
        private final ProcessorListener listener;
        private final ScheduledFuture<?> resync;

        private Registration(ProcessorListener listener, ScheduledFuture<?> resync) {
            this.listener = listener;
            this.resync = resync;
        }

        @Override
        public boolean hasSynced() {
            return listener.hasSynced();
        }

        @Override
        public boolean waitForSync(Duration timeout) throws InterruptedException {
            return listener.waitForSync(timeout);
        }

        /**
         * Waits until this handler has been told of every change of the resource up to revision
         * {@code rv} (the storage's revisions are global: this says nothing of the resource changed
         * between its last change and rv was missed), until {@code deadline} (System.nanoTime()).
         */
        boolean awaitObserved(long rv, long deadline) throws InterruptedException {
            return Informer.this.awaitObserved(rv, deadline) && listener.awaitDelivered(deadline);
        }

        @Override
        public void close() {
            if (resync != null) {
                resync.cancel(false);
            }
            lock.writeLock().lock();
            try {
                listeners.remove(listener);
            } finally {
                lock.writeLock().unlock();
            }
            listener.close();
        }
    }

    /**
     * Waits until the cache has applied every change up to revision {@code rv}, asking the watch for
     * progress (a BOOKMARK) while it has not, until {@code deadline}; false when it passed first.
     * Every change applied is queued to the handlers by then.
     */
    boolean awaitObserved(long rv, long deadline) throws InterruptedException {
        while (observed() < rv) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || stopped.getCount() == 0) {
                return false;
            }
            reflector.requestProgress();
            synchronized (progress) {
                progressWaiters++;
                try {
                    if (observed() < rv) {
                        TimeUnit.NANOSECONDS.timedWait(progress, Math.min(left, PROGRESS_RETRY_NANOS));
                    }
                } finally {
                    progressWaiters--;
                }
            }
        }
        return true;
    }

    private long observed() {
        try {
            String rv = lastSyncResourceVersion;
            return rv.isEmpty() ? 0 : Long.parseLong(rv);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Sets the revision applied last, and wakes those waiting for it. */
    private void observedAt(String resourceVersion) {
        lastSyncResourceVersion = resourceVersion;
        if (progressWaiters > 0) {
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }

    /** Tells one handler of every cached object again, as an update to itself. */
    void resync(ProcessorListener listener) {
        lock.readLock().lock();
        try {
            if (hasSynced() && listeners.contains(listener)) {
                cache.list().forEach(obj -> listener.update(obj, obj));
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void addIndexers(Map<String, IndexFunc> indexers) {
        lock.writeLock().lock();
        try {
            cache.addIndexers(indexers);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Drops indexers (their owner's bundle went away). */
    void removeIndexers(Set<String> names) {
        lock.writeLock().lock();
        try {
            cache.removeIndexers(names);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public List<ObjectNode> byIndex(String indexName, String indexedValue) {
        lock.readLock().lock();
        try {
            return cache.byIndex(indexName, indexedValue);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public ObjectNode getByKey(String key) {
        lock.readLock().lock();
        try {
            return cache.get(key);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public GenericLister lister() {
        return new GenericLister() {
            @Override
            public List<ObjectNode> list() {
                lock.readLock().lock();
                try {
                    return cache.list();
                } finally {
                    lock.readLock().unlock();
                }
            }

            @Override
            public Optional<ObjectNode> get(String name) {
                return Optional.ofNullable(getByKey(name));
            }

            @Override
            public GenericNamespaceLister byNamespace(String namespace) {
                return new GenericNamespaceLister() {
                    @Override
                    public List<ObjectNode> list() {
                        return byIndex(NAMESPACE_INDEX, namespace);
                    }

                    @Override
                    public Optional<ObjectNode> get(String name) {
                        return Optional.ofNullable(getByKey(SharedIndexInformer.keyOf(namespace, name)));
                    }
                };
            }
        };
    }

    @Override
    public boolean hasSynced() {
        return synced.getCount() == 0;
    }

    @Override
    public boolean waitForSync(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!hasSynced() && stopped.getCount() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            // Wakes up when synced, or within a short while when stopped.
            synced.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
        }
        return hasSynced();
    }

    @Override
    public String lastSyncResourceVersion() {
        return lastSyncResourceVersion;
    }

    /**
     * Makes the cache what a list read at {@code resourceVersion}: objects it lacks are added, those
     * whose resourceVersion differs updated, those the list lacks deleted; handlers are told exactly
     * these. The first list also completes the handlers' initial sync.
     */
    void replace(List<ObjectNode> items, String resourceVersion) {
        lock.writeLock().lock();
        try {
            boolean initial = !hasSynced();
            Set<String> listed = new HashSet<>();
            for (ObjectNode obj : items) {
                String key = keyOf(obj);
                listed.add(key);
                ObjectNode old = cache.get(key);
                if (old == null) {
                    cache.put(key, obj);
                    listeners.forEach(l -> l.add(obj, initial));
                } else if (!resourceVersion(old).equals(resourceVersion(obj))) {
                    cache.put(key, obj);
                    listeners.forEach(l -> l.update(old, obj));
                }
            }
            for (String key : List.copyOf(cache.keys())) {
                if (!listed.contains(key)) {
                    ObjectNode old = cache.remove(key);
                    listeners.forEach(l -> l.delete(old));
                }
            }
            observedAt(resourceVersion);
            listeners.forEach(ProcessorListener::initialListQueued);
            synced.countDown();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Applies one watch event (ADDED, MODIFIED or DELETED); one that changes nothing in the cache tells nobody. */
    void apply(WatchEvent event) {
        ObjectNode obj = event.object();
        String key = keyOf(obj);
        lock.writeLock().lock();
        try {
            if (event.type() == WatchEvent.Type.DELETED) {
                ObjectNode old = cache.remove(key);
                if (old != null) {
                    listeners.forEach(l -> l.delete(obj));
                }
            } else {
                ObjectNode old = cache.put(key, obj);
                if (old == null) {
                    listeners.forEach(l -> l.add(obj, false));
                } else if (!resourceVersion(old).equals(resourceVersion(obj))) {
                    listeners.forEach(l -> l.update(old, obj));
                }
            }
            observedAt(resourceVersion(obj));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Records the revision of a bookmark. */
    void bookmark(String resourceVersion) {
        observedAt(resourceVersion);
    }

    int size() {
        lock.readLock().lock();
        try {
            return cache.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    static String keyOf(ObjectNode obj) {
        return obj == null ? "" : SharedIndexInformer.keyOf(obj);
    }

    static String resourceVersion(ObjectNode obj) {
        return obj.path("metadata").path("resourceVersion").asText("");
    }
}
