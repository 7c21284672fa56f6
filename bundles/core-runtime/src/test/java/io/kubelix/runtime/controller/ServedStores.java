package io.kubelix.runtime.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.MemoryTestBackends;
import io.kubelix.runtime.registry.AdmissionChain;
import io.kubelix.runtime.registry.GenericStore;
import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.runtime.storage.cacher.CacherOptions;
import io.kubelix.storage.memory.MemoryStorageBackend;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * Served resources for controller tests: generic Stores (accepting any object) over one real
 * memory backend behind real watch caches, which a test serves and takes away.
 */
public final class ServedStores implements ServedResources, AutoCloseable {
    private final MemoryStorageBackend backend = MemoryTestBackends.newBackend(10_000, 100_000, 100);
    private final Map<GroupVersionResource, Cacher> cachers = new ConcurrentHashMap<>();
    private final Map<GroupVersionResource, RESTStorage> served = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /** Serves {@code resource} with a new Store over its watch cache; {@code namespaced} as the resource is. */
    public GenericStore serve(GroupVersionResource resource, String kind, boolean namespaced) {
        GenericStore store = newStore(resource, kind, namespaced);
        serve(resource, store);
        return store;
    }

    /**
     * Serves {@code resource} as {@link #serve(GroupVersionResource, String, boolean)} does, but each
     * event its watches deliver (not their bookmarks) is held for {@code delay} first: an informer of
     * it lags behind those of the other resources.
     */
    public GenericStore serveWithSlowWatches(GroupVersionResource resource, String kind, boolean namespaced,
                                             Duration delay) {
        GenericStore store = newStore(resource, kind, namespaced, cacher -> slowWatches(cacher, delay));
        serve(resource, store);
        return store;
    }

    /** Uncached storage under {@code prefix} on the same backend, as StorageFactory's raw storage. */
    public StorageInterface rawStorage(String prefix) {
        return backend.forResource(new StorageConfig(new GroupResource("", prefix), prefix));
    }

    /** A new Store over the resource's watch cache (as a new revision of its plugin builds one), not served yet. */
    public GenericStore newStore(GroupVersionResource resource, String kind, boolean namespaced) {
        return newStore(resource, kind, namespaced, UnaryOperator.identity());
    }

    private GenericStore newStore(GroupVersionResource resource, String kind, boolean namespaced,
                                  UnaryOperator<StorageInterface> decorator) {
        GroupResource gr = GroupResource.of(resource.group(), resource.resource());
        String prefix = "/" + resource.resource();
        Cacher cacher = cachers.computeIfAbsent(resource, r -> new Cacher(backend.forResource(new StorageConfig(gr, prefix)),
                gr, prefix, CacherOptions.DEFAULT));
        return new GenericStore(StoreSpec.builder(gr, kind).singularName(kind.toLowerCase())
                .namespaced(namespaced).resourcePrefix(prefix).strategy(new AnyObject()).build(),
                decorator.apply(cacher), new AdmissionChain());
    }

    /** {@code storage}, with every watch it opens delivering each event {@code delay} late. */
    private static StorageInterface slowWatches(StorageInterface storage, Duration delay) {
        return (StorageInterface) Proxy.newProxyInstance(StorageInterface.class.getClassLoader(),
                new Class<?>[] {StorageInterface.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(storage, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    return result instanceof Watch w ? new SlowWatch(w, delay) : result;
                });
    }

    /** A watch read with blocking {@link #next} only, each event (but bookmarks) held for a while first. */
    private record SlowWatch(Watch watch, Duration delay) implements Watch {
        @Override
        public WatchEvent next(Duration timeout) throws InterruptedException {
            WatchEvent e = watch.next(timeout);
            if (e != null && e.type() != WatchEvent.Type.BOOKMARK) {
                Thread.sleep(delay.toMillis());
            }
            return e;
        }

        @Override
        public boolean done() {
            return watch.done();
        }

        @Override
        public void requestProgress() {
            watch.requestProgress();
        }

        @Override
        public void close() {
            watch.close();
        }
    }

    /** Serves {@code resource} (a subresource path, say) with a storage the test built. */
    public void serve(GroupVersionResource resource, RESTStorage storage) {
        served.put(resource, storage);
        listeners.forEach(Runnable::run);
    }

    public void unserve(GroupVersionResource resource) {
        served.remove(resource);
        listeners.forEach(Runnable::run);
    }

    public GenericStore store(GroupVersionResource resource) {
        return (GenericStore) served.get(resource);
    }

    @Override
    public RESTStorage storage(GroupVersionResource resource) {
        return served.get(resource);
    }

    @Override
    public List<GroupVersionResource> resources() {
        return served.keySet().stream().filter(r -> !r.resource().contains("/")).toList();
    }

    @Override
    public Runnable onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public void close() {
        cachers.values().forEach(Cacher::stop);
        MemoryTestBackends.close(backend);
    }

    private static final class AnyObject implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return List.of();
        }

        @Override
        public boolean allowUnconditionalUpdate() {
            return true;
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return List.of();
        }
    }
}
