package io.kubelix.runtime.controller.informer;

import io.kubelix.api.informer.RateLimiter;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.Reconciler;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.RESTMapping;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.QueueWorkers;
import io.kubelix.runtime.controller.ServedResources;
import io.kubelix.runtime.controller.workqueue.MaxOfRateLimiter;
import io.kubelix.runtime.controller.workqueue.Ticker;
import io.kubelix.runtime.controller.workqueue.WorkQueue;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's informers: one per group, version and resource, created on first request and run
 * until the server stops (core-runtime internal; plugins get it through the bundle-scoped
 * {@link BundleInformerFactory}). It belongs to core-runtime, so informers outlive the plugins
 * serving and using the resources.
 */
@Component(service = InformerFactory.class)
public final class InformerFactory implements SharedInformerFactory {
    private static final Logger LOG = LoggerFactory.getLogger(InformerFactory.class);

    private final ServedResources served;
    private final Map<GroupVersionResource, Informer> informers = new ConcurrentHashMap<>();
    private final ExecutorService handlerThreads = Executors.newCachedThreadPool(daemon("kubelix-informer-handler-"));
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            daemon("kubelix-informer-resync-"));
    private volatile boolean stopped;

    @Activate
    public InformerFactory(@Reference ServedResources served) {
        this.served = served;
    }

    @Deactivate
    public void stop() {
        stopped = true;
        informers.values().forEach(Informer::stop);
        informers.clear();
        timers.shutdownNow();
        handlerThreads.shutdownNow();
    }

    @Override
    public SharedIndexInformer forResource(GroupVersionResource resource) {
        return informer(resource);
    }

    @Override
    public Optional<RESTMapping> mappingFor(GroupVersionKind kind) {
        for (GroupVersionResource r : served.resources()) {
            if (!r.group().equals(kind.group()) || !r.version().equals(kind.version())) {
                continue;
            }
            RESTStorage storage = served.storage(r);
            if (storage != null && kind.kind().equals(storage.kind())) {
                return java.util.Optional.of(new RESTMapping(r, storage.namespaced()));
            }
        }
        return java.util.Optional.empty();
    }

    Informer informer(GroupVersionResource resource) {
        if (resource.resource().contains("/")) {
            throw new IllegalArgumentException("informers follow resources, not subresources: " + resource.resource());
        }
        if (stopped) {
            throw new IllegalStateException("the informer factory has stopped");
        }
        return informers.computeIfAbsent(resource, r -> {
            Informer informer = new Informer(r, served, handlerThreads, timers);
            informer.start();
            LOG.info("informer {}: started", Reflector.describe(r));
            return informer;
        });
    }

    /**
     * The informers that have not synced yet although their resource is served now (by a storage
     * that can be listed and watched), by name, sorted: what the {@code informer-sync} readiness
     * check waits for. An informer of a resource nobody serves is not waited for.
     */
    public List<String> unsynced() {
        List<String> names = new ArrayList<>();
        informers.forEach((resource, informer) -> {
            RESTStorage storage = served.storage(resource);
            if (storage instanceof Lister && storage instanceof Watcher && !informer.hasSynced()) {
                names.add(Reflector.describe(resource));
            }
        });
        names.sort(null);
        return names;
    }

    @Override
    public boolean waitForCacheSync(Duration timeout, GroupVersionResource... resources) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (GroupVersionResource r : resources) {
            if (!forResource(r).waitForSync(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits until the handler of {@code registration} (made by an informer of this factory) has been
     * told of every change of its resource up to revision {@code rv}, asking the informer's watch for
     * progress when the resource is idle; false when {@code deadline} (System.nanoTime()) passed first.
     * A controller that decides from several informers' state (the garbage collector deciding that
     * an owner has no dependents left) waits so for the revision its decision concerns.
     */
    public boolean awaitObserved(ResourceEventHandlerRegistration registration, long rv, long deadline)
            throws InterruptedException {
        if (!(registration instanceof Informer.Registration r)) {
            throw new IllegalArgumentException("not a registration of this factory's informers: " + registration);
        }
        return r.awaitObserved(rv, deadline);
    }

    @Override
    public <T> RateLimitingQueue<T> newRateLimitingQueue(String name) {
        return newRateLimitingQueue(name, MaxOfRateLimiter.defaultControllerRateLimiter(Ticker.SYSTEM));
    }

    @Override
    public <T> RateLimitingQueue<T> newRateLimitingQueue(String name, RateLimiter<T> rateLimiter) {
        return new WorkQueue<>(name, rateLimiter, Ticker.SYSTEM);
    }

    @Override
    public <T> Workers runWorkers(String name, RateLimitingQueue<T> queue, int workers, Reconciler<T> reconciler) {
        QueueWorkers<T> w = new QueueWorkers<>(name, queue, workers, reconciler);
        w.start();
        return w;
    }

    private static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
