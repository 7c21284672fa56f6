package io.kubelix.runtime.controller.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.IndexFunc;
import io.kubelix.api.informer.RateLimiter;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.Reconciler;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.informer.RESTMapping;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.server.Lifecycle;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.ComponentContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ServiceScope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link SharedInformerFactory} service as one bundle sees it: the server's shared informers,
 * but every handler the bundle adds and every queue it makes are its own, and are removed and shut
 * down when the bundle releases the service (it stops, or is updated), so the server never calls a
 * stopped plugin's code.
 */
@Component(service = SharedInformerFactory.class, scope = ServiceScope.BUNDLE)
public final class BundleInformerFactory implements SharedInformerFactory {
    private static final Logger LOG = LoggerFactory.getLogger(BundleInformerFactory.class);

    private final InformerFactory shared;
    private final String consumer;
    private final Set<ResourceEventHandlerRegistration> registrations = ConcurrentHashMap.newKeySet();
    private final Set<RateLimitingQueue<?>> queues = ConcurrentHashMap.newKeySet();
    private final Set<Workers> workers = ConcurrentHashMap.newKeySet();
    /** The indexers this bundle added, by informer. */
    private final Map<Informer, Set<String>> indexers = new ConcurrentHashMap<>();

    @Activate
    public BundleInformerFactory(@Reference InformerFactory shared, ComponentContext context) {
        this(shared, name(context.getUsingBundle()));
    }

    BundleInformerFactory(InformerFactory shared, String consumer) {
        this.shared = shared;
        this.consumer = consumer;
    }

    @Deactivate
    void deactivate() {
        if (!registrations.isEmpty() || !queues.isEmpty()) {
            Lifecycle.gone(LOG, "informers: {} released; removing its {} handlers and shutting down its {} work queues", consumer,
                    registrations.size(), queues.size());
        }
        // 1. no handler adds keys any more; 2. the workers finish what is queued and end; 3. the queues go.
        List.copyOf(registrations).forEach(ResourceEventHandlerRegistration::close);
        List.copyOf(workers).forEach(Workers::stop);
        workers.clear();
        queues.forEach(RateLimitingQueue::shutDown);
        queues.clear();
        // Indexers run the bundle's code; a new revision of it adds them again under the same names.
        indexers.forEach(Informer::removeIndexers);
        indexers.clear();
    }

    @Override
    public SharedIndexInformer forResource(GroupVersionResource resource) {
        return new Tracked(shared.informer(resource));
    }

    @Override
    public Optional<RESTMapping> mappingFor(GroupVersionKind kind) {
        return shared.mappingFor(kind);
    }

    @Override
    public boolean waitForCacheSync(Duration timeout, GroupVersionResource... resources) throws InterruptedException {
        return shared.waitForCacheSync(timeout, resources);
    }

    @Override
    public <T> RateLimitingQueue<T> newRateLimitingQueue(String name) {
        RateLimitingQueue<T> queue = shared.newRateLimitingQueue(name);
        queues.add(queue);
        return queue;
    }

    @Override
    public <T> RateLimitingQueue<T> newRateLimitingQueue(String name, RateLimiter<T> rateLimiter) {
        RateLimitingQueue<T> queue = shared.newRateLimitingQueue(name, rateLimiter);
        queues.add(queue);
        return queue;
    }

    @Override
    public <T> Workers runWorkers(String name, RateLimitingQueue<T> queue, int count, Reconciler<T> reconciler) {
        Workers started = shared.runWorkers(name, queue, count, reconciler);
        Workers owned = new Workers() {
            @Override
            public void stop() {
                workers.remove(this);
                started.stop();
            }
        };
        workers.add(owned);
        return owned;
    }

    private static String name(Bundle bundle) {
        return bundle == null ? "a bundle" : bundle.getSymbolicName() + " [" + bundle.getBundleId() + "]";
    }

    /** A shared informer whose handlers this bundle owns. */
    private final class Tracked implements SharedIndexInformer {
        private final Informer informer;

        Tracked(Informer informer) {
            this.informer = informer;
        }

        @Override
        public GroupVersionResource resource() {
            return informer.resource();
        }

        @Override
        public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler) {
            return addEventHandler(handler, Duration.ZERO);
        }

        @Override
        public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler, Duration resyncPeriod) {
            ResourceEventHandlerRegistration r = informer.addEventHandler(handler, resyncPeriod);
            ResourceEventHandlerRegistration owned = new ResourceEventHandlerRegistration() {
                @Override
                public boolean hasSynced() {
                    return r.hasSynced();
                }

                @Override
                public boolean waitForSync(Duration timeout) throws InterruptedException {
                    return r.waitForSync(timeout);
                }

                @Override
                public void close() {
                    registrations.remove(this);
                    r.close();
                }
            };
            registrations.add(owned);
            return owned;
        }

        @Override
        public void addIndexers(Map<String, IndexFunc> indexers) {
            informer.addIndexers(indexers);
            BundleInformerFactory.this.indexers.computeIfAbsent(informer, i -> ConcurrentHashMap.newKeySet())
                    .addAll(indexers.keySet());
        }

        @Override
        public List<ObjectNode> byIndex(String indexName, String indexedValue) {
            return informer.byIndex(indexName, indexedValue);
        }

        @Override
        public ObjectNode getByKey(String key) {
            return informer.getByKey(key);
        }

        @Override
        public GenericLister lister() {
            return informer.lister();
        }

        @Override
        public boolean hasSynced() {
            return informer.hasSynced();
        }

        @Override
        public boolean waitForSync(Duration timeout) throws InterruptedException {
            return informer.waitForSync(timeout);
        }

        @Override
        public String lastSyncResourceVersion() {
            return informer.lastSyncResourceVersion();
        }
    }
}
