package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.DeleteResult;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Watch;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for core-runtime's generic Store: objects by name (namespaces ignored), running the
 * spec's create strategy so tests see what a stored object would look like.
 */
final class FakeStore implements StandardStorage {
    final StoreSpec spec;
    final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();
    final List<String> created = new CopyOnWriteArrayList<>();
    final List<String> gets = new CopyOnWriteArrayList<>();
    /** While positive, every call fails with a 500 and the count goes down. */
    final AtomicInteger failures = new AtomicInteger();
    /** When set, get answers NotFound for everything, like a cache that lags behind storage. */
    volatile boolean staleGets;

    FakeStore(StoreSpec spec) {
        this.spec = spec;
    }

    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        gets.add(name + "@" + resourceVersion);
        maybeFail();
        ObjectNode o = staleGets ? null : objects.get(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        return o.deepCopy();
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode obj, CreateOptions options) {
        maybeFail();
        spec.createStrategy().prepareForCreate(ctx, obj);
        spec.createStrategy().canonicalize(obj);
        String name = Nodes.name(obj);
        if (objects.putIfAbsent(name, obj) != null) {
            throw StatusException.alreadyExists(spec.groupResource(), name);
        }
        created.add(name);
        return obj.deepCopy();
    }

    private void maybeFail() {
        if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw StatusException.internalError("storage unavailable", null);
        }
    }

    @Override
    public ListResult list(RequestContext ctx, ListOptions options) {
        return new ListResult(new ArrayList<>(objects.values()), 1, null, null);
    }

    @Override
    public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        throw new UnsupportedOperationException();
    }

    @Override
    public DeleteResult delete(RequestContext ctx, String name, DeleteOptions options) {
        ObjectNode o = objects.remove(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        return new DeleteResult(o, true);
    }

    @Override
    public ListResult deleteCollection(RequestContext ctx, DeleteOptions options, ListOptions listOptions) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Watch watch(RequestContext ctx, ListOptions options) {
        throw new UnsupportedOperationException();
    }

    @Override
    public String kind() {
        return spec.kind();
    }

    @Override
    public boolean namespaced() {
        return spec.namespaced();
    }

    @Override
    public String singularName() {
        return spec.singularName();
    }
}
