package io.kubelix.resource.core.testing;

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
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in for the generic Store that runs a spec's strategies as the Store does (prepare, then
 * validate with a 422, on create and update) over a map of objects by name, so the service REST's
 * allocations can be tested against real failures.
 */
public final class MapStore implements StandardStorage {
    public final StoreSpec spec;
    public final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();

    public MapStore(StoreSpec spec) {
        this.spec = spec;
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode input, CreateOptions options) {
        ObjectNode obj = input.deepCopy();
        spec.createStrategy().prepareForCreate(ctx, obj);
        check(obj, spec.createStrategy().validate(ctx, obj));
        ((ObjectNode) obj.path("metadata")).put("uid", UUID.randomUUID().toString());
        if (options.dryRun()) {
            return obj;
        }
        if (objects.putIfAbsent(Nodes.name(obj), obj) != null) {
            throw StatusException.alreadyExists(spec.groupResource(), Nodes.name(obj));
        }
        return obj.deepCopy();
    }

    @Override
    public synchronized UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        ObjectNode old = objects.get(name);
        if (old == null) {
            if (!spec.updateStrategy().allowCreateOnUpdate()) {
                throw StatusException.notFound(spec.groupResource(), name);
            }
            return new UpdateResult(create(ctx, objInfo.updatedObject(ctx, null), new CreateOptions(options.dryRun(), null)), true);
        }
        ObjectNode obj = objInfo.updatedObject(ctx, old.deepCopy()).deepCopy();
        spec.updateStrategy().prepareForUpdate(ctx, obj, old);
        check(obj, spec.updateStrategy().validateUpdate(ctx, obj, old));
        if (!options.dryRun()) {
            objects.put(name, obj);
        }
        return new UpdateResult(obj.deepCopy(), false);
    }

    private void check(ObjectNode obj, List<FieldError> errs) {
        if (!errs.isEmpty()) {
            throw StatusException.invalid(spec.kind(), "", Nodes.name(obj), errs);
        }
    }

    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        ObjectNode o = objects.get(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        return o.deepCopy();
    }

    @Override
    public ListResult list(RequestContext ctx, ListOptions options) {
        return new ListResult(new ArrayList<>(objects.values()), 1, null, null);
    }

    @Override
    public DeleteResult delete(RequestContext ctx, String name, DeleteOptions options) {
        ObjectNode o = options.dryRun() ? objects.get(name) : objects.remove(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        return new DeleteResult(o, true);
    }

    @Override
    public ListResult deleteCollection(RequestContext ctx, DeleteOptions options, ListOptions listOptions) {
        List<ObjectNode> all = new ArrayList<>(objects.values());
        if (!options.dryRun()) {
            objects.clear();
        }
        return new ListResult(all, 1, null, null);
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
