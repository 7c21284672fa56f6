package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.object.ObjectMeta;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.DeleteResult;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Watch;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * kube's service REST (pkg/registry/core/service/storage/storage.go): the generic Store of services
 * with the {@link ServiceAllocators} around its writes. A create takes its cluster IP and node ports
 * before the Store writes and gives them back when the write fails; an update takes what the new
 * version needs and, once written, gives back what only the old one held; a delete gives back what
 * the deleted service held, including when the update that removes its last finalizer deletes it.
 * Reads go to the Store unchanged.
 */
public final class ServiceREST implements StandardStorage {
    private final StandardStorage store;
    private final ServiceAllocators allocators;
    private final ServiceRepair repair;

    ServiceREST(StandardStorage store, ServiceAllocators allocators, ServiceRepair repair) {
        this.store = store;
        this.allocators = allocators;
        this.repair = repair;
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode obj, CreateOptions options) {
        ObjectNode svc = obj.deepCopy();
        ServiceDefaults.apply(svc, allocators.cidr().family());
        ServiceAllocators.Transaction txn = allocators.allocateCreate(svc, options.dryRun());
        try {
            return store.create(ctx, svc, options);
        } catch (RuntimeException e) {
            txn.revert();
            throw e;
        }
    }

    @Override
    public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        AtomicReference<ServiceAllocators.Transaction> txn = new AtomicReference<>();
        UpdatedObjectInfo allocating = (c, old) -> {
            ServiceAllocators.Transaction previous = txn.getAndSet(null);
            if (previous != null) {
                previous.revert(); // a conflict made the Store try again with a newer object
            }
            ObjectNode svc = objInfo.updatedObject(c, old == null ? null : old.deepCopy()).deepCopy();
            if (old != null) {
                ServiceDefaults.applyUpdate(svc, old, allocators.cidr().family());
            } else {
                ServiceDefaults.apply(svc, allocators.cidr().family());
            }
            txn.set(old == null ? allocators.allocateCreate(svc, options.dryRun())
                    : allocators.allocateUpdate(svc, old, options.dryRun()));
            return svc;
        };
        UpdateResult result;
        try {
            result = store.update(ctx, name, allocating, options);
        } catch (RuntimeException e) {
            ServiceAllocators.Transaction t = txn.get();
            if (t != null) {
                t.revert();
            }
            throw e;
        }
        ServiceAllocators.Transaction t = txn.get();
        if (t != null) {
            t.commit();
        }
        if (!options.dryRun() && deletedByUpdate(result.object())) {
            allocators.releaseAll(result.object());
        }
        return result;
    }

    /** An update that took the last finalizer from a service being deleted has deleted it. */
    private static boolean deletedByUpdate(ObjectNode obj) {
        ObjectMeta meta = Unstructured.wrap(obj).metadata();
        return meta.deletionTimestamp() != null && meta.finalizers().isEmpty();
    }

    @Override
    public DeleteResult delete(RequestContext ctx, String name, DeleteOptions options) {
        DeleteResult result = store.delete(ctx, name, options);
        if (result.immediate() && !options.dryRun()) {
            allocators.releaseAll(result.object());
        }
        return result;
    }

    /**
     * Deletes through the Store, then gives back what each listed service held once it is gone
     * (a service kept by finalizers gives back when its last finalizer goes).
     */
    @Override
    public ListResult deleteCollection(RequestContext ctx, DeleteOptions options, ListOptions listOptions) {
        ListResult result = store.deleteCollection(ctx, options, listOptions);
        if (options.dryRun()) {
            return result;
        }
        for (ObjectNode item : result.items()) {
            ObjectMeta meta = Unstructured.wrap(item).metadata();
            try {
                ObjectNode current = store.get(inNamespace(ctx, meta.namespace()), meta.name(), "");
                if (!java.util.Objects.equals(Unstructured.wrap(current).metadata().uid(), meta.uid())) {
                    allocators.releaseAll(item);
                }
            } catch (StatusException e) {
                if (e.code() != 404) {
                    throw e;
                }
                allocators.releaseAll(item);
            }
        }
        return result;
    }

    private static RequestContext inNamespace(RequestContext ctx, String namespace) {
        String ns = namespace == null ? "" : namespace;
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return ctx.user();
            }

            @Override
            public RequestInfo requestInfo() {
                return ctx.requestInfo();
            }

            @Override
            public String namespace() {
                return ns;
            }

            @Override
            public void addWarning(String message) {
                ctx.addWarning(message);
            }
        };
    }

    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        return store.get(ctx, name, resourceVersion);
    }

    @Override
    public ListResult list(RequestContext ctx, ListOptions options) {
        return store.list(ctx, options);
    }

    @Override
    public Watch watch(RequestContext ctx, ListOptions options) {
        return store.watch(ctx, options);
    }

    @Override
    public String kind() {
        return store.kind();
    }

    @Override
    public boolean namespaced() {
        return store.namespaced();
    }

    @Override
    public String singularName() {
        return store.singularName();
    }

    @Override
    public List<String> shortNames() {
        return store.shortNames();
    }

    @Override
    public List<String> categories() {
        return store.categories();
    }

    @Override
    public List<TableColumn> tableColumns() {
        return store.tableColumns();
    }

    @Override
    public Map<String, Function<ObjectNode, String>> selectableFields() {
        return store.selectableFields();
    }

    @Override
    public ResourceSchema schema() {
        return store.schema();
    }

    @Override
    public void destroy() {
        repair.stop();
        store.destroy();
    }
}
