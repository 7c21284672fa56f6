package io.kubelix.runtime.controller.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.controller.ServedResources;
import io.kubelix.runtime.server.Lifecycle;
import io.kubelix.runtime.storage.cacher.CachingObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * client-go's {@code Reflector}, in process: lists a resource through the storage serving it, then
 * watches it from the list's revision, and feeds both to its {@link Informer}. Its thread does, in
 * a loop:
 * <ol>
 *   <li>find the storage serving the resource; while none does, wait for the served resources to change;</li>
 *   <li>list, when it never has, or its last watch expired (410): first from the watch cache
 *       ({@code resourceVersion=0}), after a 410 at the current revision ({@code ""});</li>
 *   <li>watch from the last revision it applied, with bookmarks, until the watch ends, expires, or
 *       another storage serves the resource (its plugin was updated): then it goes round again,
 *       resuming from that revision.</li>
 * </ol>
 * Failures (storage unreachable) are retried with a back-off from 1 s doubling to 30 s; a change of
 * what is served (a plugin, the storage backend) retries at once.
 */
final class Reflector {
    private static final Logger LOG = LoggerFactory.getLogger(Reflector.class);
    private static final Duration MIN_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** How long one wait for an event lasts; the loop then checks it is still wanted. */
    private static final Duration WAIT = Duration.ofMinutes(1);

    private final GroupVersionResource resource;
    /** The resource as the log names it. */
    private final String name;
    private final ServedResources served;
    private final Informer informer;
    private final Thread thread;
    private final Object changes = new Object();
    /** Counts the changes of what is served; guarded by {@link #changes}. */
    private long generation;
    private volatile boolean running = true;
    private volatile RESTStorage storage;
    private volatile Watch current;
    private Runnable unsubscribe = () -> { };
    /** The failure last warned about; null after a success. Touched by the reflector's thread only. */
    private String lastFailure;

    Reflector(GroupVersionResource resource, ServedResources served, Informer informer) {
        this.resource = resource;
        this.name = describe(resource);
        this.served = served;
        this.informer = informer;
        this.thread = new Thread(this::run, "kubelix-informer-" + name);
        thread.setDaemon(true);
    }

    void start() {
        unsubscribe = served.onChange(this::servedChanged);
        thread.start();
    }

    void stop() {
        running = false;
        unsubscribe.run();
        servedChanged();
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Asks the open watch for a BOOKMARK at its storage's current revision (RequestWatchProgress), so
     * an informer of a resource nobody writes learns it is up to date; nothing while none is open.
     */
    void requestProgress() {
        Watch w = current;
        if (w != null) {
            w.requestProgress();
        }
    }

    /**
     * What is served changed: wakes the loop when it waits, and ends the open watch when another
     * storage (or none) serves the resource now.
     */
    private void servedChanged() {
        synchronized (changes) {
            generation++;
            changes.notifyAll();
        }
        Watch w = current;
        if (w != null && (!running || served.storage(resource) != storage)) {
            w.close();
        }
    }

    private void run() {
        boolean listed = false;
        Duration backoff = MIN_BACKOFF;
        while (running) {
            long seen;
            synchronized (changes) {
                seen = generation;
            }
            RESTStorage s = served.storage(resource);
            if (!(s instanceof Lister lister) || !(s instanceof Watcher watcher)) {
                if (s != null) {
                    LOG.warn("informer {}: the resource cannot be listed and watched; waiting for another storage", name);
                } else {
                    LOG.debug("informer {}: the resource is not served; waiting", name);
                }
                awaitChange(seen, null);
                continue;
            }
            if (!served.storageAvailable()) {
                // Not a failure: the server starts (or stops) and the storage backend is not there; its
                // arrival is a change of what is served, which ends this wait.
                LOG.debug("informer {}: waiting for the storage backend", name);
                awaitChange(seen, null);
                continue;
            }
            if (storage != null && storage != s) {
                LOG.info("informer {}: its storage changed (plugin updated); resuming from revision {}", name,
                        informer.lastSyncResourceVersion());
            }
            storage = s;
            try {
                if (!listed) {
                    list(lister, informer.hasSynced() ? "" : "0");
                    listed = true;
                }
                listed = watch(s, watcher);
                backoff = MIN_BACKOFF;
                lastFailure = null;
            } catch (StatusException e) {
                if (e.code() == 410) {
                    LOG.info("informer {}: revision {} expired; listing again", name, informer.lastSyncResourceVersion());
                    listed = false;
                    continue;
                }
                backoff = retryLater(seen, backoff, e.getMessage());
            } catch (RuntimeException e) {
                if (!running) {
                    break;
                }
                backoff = retryLater(seen, backoff, e.toString());
            }
        }
    }

    /**
     * Waits out a back-off after a failure; what is served changing (a plugin or the storage backend
     * came) ends the wait early without growing the back-off. Returns the next back-off.
     */
    private Duration retryLater(long seen, Duration backoff, String failure) {
        // One warning per streak of the same failure (storage unreachable); the rest at debug, and all
        // of them while the server stops or the storage backend is going (plugins stop before informers).
        if (Lifecycle.stopping() || !served.storageAvailable()) {
            LOG.debug("informer {}: {}; retrying in {} s", name, failure, backoff.toSeconds());
        } else if (!failure.equals(lastFailure)) {
            LOG.warn("informer {}: {}; retrying in {} s", name, failure, backoff.toSeconds());
            lastFailure = failure;
        } else {
            LOG.debug("informer {}: {}; retrying in {} s", name, failure, backoff.toSeconds());
        }
        return awaitChange(seen, backoff) ? backoff : next(backoff);
    }

    private void list(Lister lister, String resourceVersion) {
        ListResult result = lister.list(RequestContext.system(""), new ListOptions(resourceVersion,
                ResourceVersionMatch.UNSET, SelectionPredicate.EVERYTHING, true, 0, null, false));
        informer.replace(shared(result), Long.toString(result.resourceVersion()));
        LOG.info("informer {}: listed {} objects at revision {}", name, result.items().size(),
                result.resourceVersion());
    }

    /**
     * The listed objects, those the watch cache listed as its own shared ones: the informer keeps
     * them as they are, as it keeps the objects of the cache's watch events (neither may be changed),
     * so a large resource is not held twice, and not copied to be listed.
     */
    private static List<ObjectNode> shared(ListResult result) {
        List<Supplier<byte[]>> json = result.json();
        if (json == null) {
            return result.items();
        }
        List<ObjectNode> items = new ArrayList<>(json.size());
        for (int i = 0; i < json.size(); i++) {
            items.add(json.get(i) instanceof CachingObject c ? c.object() : result.items().get(i));
        }
        return items;
    }

    /**
     * Watches from the informer's last revision until the watch ends; returns false when it expired
     * (the next round lists), true otherwise.
     */
    private boolean watch(RESTStorage s, Watcher watcher) {
        ListOptions opts = new ListOptions(informer.lastSyncResourceVersion(), ResourceVersionMatch.UNSET,
                SelectionPredicate.EVERYTHING, true, 0, null, true);
        Watch w = watcher.watch(RequestContext.system(""), opts);
        current = w;
        try {
            // Published before the check, so a change of storage meanwhile either sees the watch or is seen here.
            if (!running || served.storage(resource) != s) {
                return true;
            }
            // A watch that tells when it has events (the watch cache's) holds no thread while idle: the
            // loop sleeps until told; one that cannot is read with a blocking next().
            Ready ready = new Ready();
            boolean notifying = w.onReady(ready);
            while (running) {
                WatchEvent event;
                try {
                    event = notifying ? w.poll() : w.next(WAIT);
                    if (event == null) {
                        if (w.done() || served.storage(resource) != s) {
                            return true;
                        }
                        if (notifying) {
                            ready.await(w);
                        }
                        continue;
                    }
                } catch (InterruptedException e) {
                    return true;
                }
                switch (event.type()) {
                    case ERROR -> {
                        if (event.error() != null && event.error().code() == 410) {
                            LOG.info("informer {}: watch from revision {} expired; listing again", name,
                                    informer.lastSyncResourceVersion());
                            return false;
                        }
                        throw event.error() != null ? event.error()
                                : new IllegalStateException("watch ended with an error event without a status");
                    }
                    case BOOKMARK -> informer.bookmark(Informer.resourceVersion(event.object()));
                    default -> informer.apply(event);
                }
            }
            return true;
        } finally {
            current = null;
            w.close();
        }
    }

    /** The watch's readiness signal: set by the producer (once per arming), awaited by the reflector. */
    private static final class Ready implements Runnable {
        private boolean set;

        @Override
        public synchronized void run() {
            set = true;
            notifyAll();
        }

        /**
         * Arms the watch's listener and waits until it fires (events came, or the watch ended or was
         * closed), at most {@link #WAIT}. Arming after the reader found nothing loses no event: a
         * watch with events at arming time fires at once.
         */
        void await(Watch w) throws InterruptedException {
            synchronized (this) {
                set = false;
            }
            w.onReady(this);
            synchronized (this) {
                if (!set) {
                    wait(WAIT.toMillis());
                }
            }
        }
    }

    /**
     * Waits until what is served changes (or {@code timeout} passes, when given); returns whether it
     * changed (or the reflector stopped).
     */
    private boolean awaitChange(long seen, Duration timeout) {
        long deadline = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
        synchronized (changes) {
            while (running && generation == seen) {
                try {
                    if (timeout == null) {
                        changes.wait();
                    } else {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            return false;
                        }
                        changes.wait(Math.max(1, left / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return true;
                }
            }
            return true;
        }
    }

    private static Duration next(Duration backoff) {
        Duration doubled = backoff.multipliedBy(2);
        return doubled.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : doubled;
    }

    static String describe(GroupVersionResource r) {
        return (r.group().isEmpty() ? "core" : r.group()) + "/" + r.version() + "/" + r.resource();
    }
}
