package io.kubelix.testing.informer;

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
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A synced informer over objects a test puts and deletes: each change is a new resourceVersion
 * (stamped on the object put) and reaches the registered handlers at once, on the test's thread.
 * Objects are keyed and listed in key order, as informers key them ({@code name} or {@code namespace/name}).
 */
public final class FakeInformer implements SharedIndexInformer {
    private final GroupVersionResource resource;
    private final Map<String, ObjectNode> objects = new ConcurrentSkipListMap<>();
    private final List<ResourceEventHandler> handlers = new CopyOnWriteArrayList<>();
    private final AtomicLong revision = new AtomicLong(1);

    public FakeInformer(GroupVersionResource resource) {
        this.resource = resource;
    }

    /** Adds or replaces an object, as a watch event would. */
    public FakeInformer put(ObjectNode obj) {
        return put(SharedIndexInformer.keyOf(obj), obj);
    }

    /** Adds or replaces an object under {@code key}, for a test whose object does not name all of it. */
    public FakeInformer put(String key, ObjectNode obj) {
        obj.with("metadata").put("resourceVersion", Long.toString(revision.incrementAndGet()));
        ObjectNode old = objects.put(key, obj);
        handlers.forEach(h -> {
            if (old == null) {
                h.onAdd(obj, false);
            } else {
                h.onUpdate(old, obj);
            }
        });
        return this;
    }

    /** Deletes the object of {@code key} ({@code name} or {@code namespace/name}), as a watch event would. */
    public void remove(String key) {
        ObjectNode old = objects.remove(key);
        revision.incrementAndGet();
        if (old != null) {
            handlers.forEach(h -> h.onDelete(old));
        }
    }

    public void delete(String namespace, String name) {
        remove(SharedIndexInformer.keyOf(namespace, name));
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
                        return objects.entrySet().stream().filter(e -> e.getKey().startsWith(namespace + "/"))
                                .map(Map.Entry::getValue).toList();
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
        return Long.toString(revision.get());
    }
}
