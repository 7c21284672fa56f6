package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Cluster-scoped objects by name, written through the spec's strategies (a failed validation is a
 * 422) and counted per verb: what the bootstrap reconciler sees of core-runtime's Store.
 */
final class MapStore implements StandardStorage {
    final StoreSpec spec;
    final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();
    final List<String> writes = new CopyOnWriteArrayList<>();
    /** While positive, every call answers 503 and the count goes down. */
    final AtomicInteger unavailable = new AtomicInteger();

    MapStore(StoreSpec spec) {
        this.spec = spec;
    }

    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        checkAvailable();
        ObjectNode o = objects.get(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        return o.deepCopy();
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode obj, CreateOptions options) {
        checkAvailable();
        spec.createStrategy().prepareForCreate(ctx, obj);
        check(obj, spec.createStrategy().validate(ctx, obj));
        String name = obj.path("metadata").path("name").asText();
        if (objects.putIfAbsent(name, obj.deepCopy()) != null) {
            throw StatusException.alreadyExists(spec.groupResource(), name);
        }
        writes.add("create " + name);
        return obj;
    }

    @Override
    public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        ObjectNode old = get(ctx, name, "");
        ObjectNode obj = objInfo.updatedObject(ctx, old.deepCopy());
        spec.updateStrategy().prepareForUpdate(ctx, obj, old);
        check(obj, spec.updateStrategy().validateUpdate(ctx, obj, old));
        objects.put(name, obj.deepCopy());
        writes.add("update " + name);
        return new UpdateResult(obj, false);
    }

    @Override
    public DeleteResult delete(RequestContext ctx, String name, DeleteOptions options) {
        ObjectNode o = objects.remove(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        writes.add("delete " + name);
        return new DeleteResult(o, true);
    }

    private void check(ObjectNode obj, List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw StatusException.invalid(spec.kind(), spec.groupResource().group(),
                    obj.path("metadata").path("name").asText(), errors);
        }
    }

    private void checkAvailable() {
        if (unavailable.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw StatusException.serviceUnavailable("storage is not ready");
        }
    }

    @Override
    public ListResult list(RequestContext ctx, ListOptions options) {
        return new ListResult(new ArrayList<>(objects.values()), 1, null, null);
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
