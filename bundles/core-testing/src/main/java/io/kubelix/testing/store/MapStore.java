package io.kubelix.testing.store;

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
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for core-runtime's generic Store over a map of objects by name (namespaces ignored):
 * it runs the spec's strategies as the Store does (prepare, validate with a 422, canonicalize on
 * create; prepare and validate on update, creating when the strategy allows it), honours dry run,
 * gives new objects a uid, and records what it was asked so tests can see the calls.
 */
public final class MapStore implements StandardStorage {
    public final StoreSpec spec;
    public final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();
    /** Each write done, as {@code create <name>}, {@code update <name>} or {@code delete <name>}. */
    public final List<String> writes = new CopyOnWriteArrayList<>();
    /** Each get, as {@code <name>@<resourceVersion>}. */
    public final List<String> gets = new CopyOnWriteArrayList<>();
    /** While positive, every get and write answers 503 and the count goes down. */
    public final AtomicInteger unavailable = new AtomicInteger();

    public MapStore(StoreSpec spec) {
        this.spec = spec;
    }

    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        gets.add(name + "@" + resourceVersion);
        checkAvailable();
        ObjectNode o = objects.get(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        return o.deepCopy();
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode input, CreateOptions options) {
        checkAvailable();
        ObjectNode obj = input.deepCopy();
        spec.createStrategy().prepareForCreate(ctx, obj);
        check(obj, spec.createStrategy().validate(ctx, obj));
        spec.createStrategy().canonicalize(obj);
        ((ObjectNode) obj.path("metadata")).put("uid", UUID.randomUUID().toString());
        if (options.dryRun()) {
            return obj;
        }
        String name = name(obj);
        if (objects.putIfAbsent(name, obj) != null) {
            throw StatusException.alreadyExists(spec.groupResource(), name);
        }
        writes.add("create " + name);
        return obj.deepCopy();
    }

    @Override
    public synchronized UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        checkAvailable();
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
            writes.add("update " + name);
        }
        return new UpdateResult(obj.deepCopy(), false);
    }

    @Override
    public DeleteResult delete(RequestContext ctx, String name, DeleteOptions options) {
        checkAvailable();
        ObjectNode o = options.dryRun() ? objects.get(name) : objects.remove(name);
        if (o == null) {
            throw StatusException.notFound(spec.groupResource(), name);
        }
        if (!options.dryRun()) {
            writes.add("delete " + name);
        }
        return new DeleteResult(o, true);
    }

    @Override
    public ListResult list(RequestContext ctx, ListOptions options) {
        return new ListResult(new ArrayList<>(objects.values()), 1, null, null);
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

    private void check(ObjectNode obj, List<FieldError> errs) {
        if (!errs.isEmpty()) {
            throw StatusException.invalid(spec.kind(), spec.groupResource().group(), name(obj), errs);
        }
    }

    private void checkAvailable() {
        if (unavailable.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw StatusException.serviceUnavailable("storage is not ready");
        }
    }

    private static String name(ObjectNode obj) {
        return obj.path("metadata").path("name").asText();
    }
}
