package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.GenericNamespaceLister;
import io.kubelix.api.informer.IndexFunc;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.schema.GroupVersionResource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** An informer for tests: a synced cache the test fills with {@link #put}, each put a new resourceVersion. */
final class FakeInformer implements SharedIndexInformer {
    private final GroupVersionResource resource;
    private final Map<String, ObjectNode> objects = new ConcurrentSkipListMap<>();
    private final AtomicLong revision = new AtomicLong(1);

    FakeInformer(GroupVersionResource resource) {
        this.resource = resource;
    }

    FakeInformer put(ObjectNode obj) {
        obj.with("metadata").put("resourceVersion", Long.toString(revision.incrementAndGet()));
        objects.put(SharedIndexInformer.keyOf(obj), obj);
        return this;
    }

    void remove(String key) {
        objects.remove(key);
        revision.incrementAndGet();
    }

    @Override
    public GroupVersionResource resource() {
        return resource;
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler, Duration resyncPeriod) {
        throw new UnsupportedOperationException();
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
                return new ArrayList<>(objects.values());
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
                        return Optional.ofNullable(objects.get(namespace + "/" + name));
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
