package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.GenericNamespaceLister;
import io.kubelix.api.informer.IndexFunc;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.schema.GroupVersionResource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** An informer over objects a test puts and deletes, telling its handlers at once, on the test's thread. */
final class FakeInformer implements SharedIndexInformer {
    private final GroupVersionResource resource;
    private final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();
    private final List<ResourceEventHandler> handlers = new CopyOnWriteArrayList<>();

    FakeInformer(GroupVersionResource resource) {
        this.resource = resource;
    }

    /** Adds or replaces an object, as a watch event would. */
    void put(ObjectNode obj) {
        ObjectNode old = objects.put(SharedIndexInformer.keyOf(obj), obj);
        handlers.forEach(h -> {
            if (old == null) {
                h.onAdd(obj, false);
            } else {
                h.onUpdate(old, obj);
            }
        });
    }

    void delete(String namespace, String name) {
        ObjectNode old = objects.remove(SharedIndexInformer.keyOf(namespace, name));
        if (old != null) {
            handlers.forEach(h -> h.onDelete(old));
        }
    }

    @Override
    public GroupVersionResource resource() {
        return resource;
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler) {
        handlers.add(handler);
        objects.values().forEach(o -> handler.onAdd(o, true));
        return new ResourceEventHandlerRegistration() {
            @Override
            public boolean hasSynced() {
                return true;
            }

            @Override
            public boolean waitForSync(Duration timeout) {
                return true;
            }

            @Override
            public void close() {
                handlers.remove(handler);
            }
        };
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler, Duration resyncPeriod) {
        return addEventHandler(handler);
    }

    @Override
    public void addIndexers(Map<String, IndexFunc> indexers) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<ObjectNode> byIndex(String indexName, String indexedValue) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ObjectNode getByKey(String key) {
        return objects.get(key);
    }

    @Override
    public GenericLister lister() {
        return new GenericLister() {
            @Override
            public List<ObjectNode> list() {
                return List.copyOf(objects.values());
            }

            @Override
            public Optional<ObjectNode> get(String name) {
                return Optional.ofNullable(objects.get(name));
            }

            @Override
            public GenericNamespaceLister byNamespace(String namespace) {
                return new GenericNamespaceLister() {
                    @Override
                    public List<ObjectNode> list() {
                        return objects.values().stream()
                                .filter(o -> namespace.equals(o.path("metadata").path("namespace").asText()))
                                .toList();
                    }

                    @Override
                    public Optional<ObjectNode> get(String name) {
                        return Optional.ofNullable(objects.get(SharedIndexInformer.keyOf(namespace, name)));
                    }
                };
            }
        };
    }

    @Override
    public boolean hasSynced() {
        return true;
    }

    @Override
    public boolean waitForSync(Duration timeout) {
        return true;
    }

    @Override
    public String lastSyncResourceVersion() {
        return "1";
    }
}
