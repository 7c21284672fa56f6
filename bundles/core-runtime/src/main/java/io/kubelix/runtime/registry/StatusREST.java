package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.ResourceSchema;

import java.util.List;

/**
 * A {@code <resource>/status} subresource (kube's StatusREST): get and update (so also patch)
 * of the parent's objects through a Store that shares the parent's storage and strategies but
 * updates with the status strategy. It offers no other verb, so discovery lists get, patch and
 * update.
 */
final class StatusREST implements StatusStorage {
    private final GenericStore store;

    StatusREST(GenericStore store) {
        this.store = store;
    }

    /** The parent's Store, whose objects this subresource serves. */
    GenericStore store() {
        return store;
    }

    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        return store.get(ctx, name, resourceVersion);
    }

    @Override
    public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        return store.update(ctx, name, objInfo, options);
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
        return "";
    }

    @Override
    public ResourceSchema schema() {
        return store.schema();
    }

    @Override
    public List<String> patchTypes() {
        return store.patchTypes();
    }

    @Override
    public String warning() {
        return store.warning();
    }

    @Override
    public List<TableColumn> tableColumns() {
        return store.tableColumns();
    }
}
