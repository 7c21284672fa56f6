package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.GroupVersionKindProvider;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.SchemaResolver;
import io.kubelix.runtime.controller.ServedResources;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's {@code EquivalentResourceRegistry} over the resources served now: resources are
 * equivalent when their Stores share a storage prefix (kube keys its registry by the storage's
 * {@code ResourcePrefix}), so every served version of a resource, events at {@code v1} and
 * {@code events.k8s.io/v1}, and the versions of a CRD are one another's equivalents. Objects are
 * converted through that storage: the source's conversion to the stored shape, then the target's
 * from it. The index is rebuilt after the served resources change. It also resolves the kinds and
 * schemas served, for type checkers.
 */
@Component(service = {EquivalentResourceMapper.class, SchemaResolver.class})
public final class EquivalentResourceRegistry implements EquivalentResourceMapper, SchemaResolver {
    private final ServedResources served;
    private final Runnable unregister;
    /** Each served resource's equivalents, itself included; null after a change until asked again. */
    private volatile Map<GroupVersionResource, List<GroupVersionResource>> index;

    @Activate
    public EquivalentResourceRegistry(@Reference ServedResources served) {
        this.served = served;
        this.unregister = served.onChange(() -> index = null);
    }

    @Deactivate
    void deactivate() {
        unregister.run();
    }

    @Override
    public List<GroupVersionResource> equivalentResourcesFor(GroupVersionResource resource, String subresource) {
        List<GroupVersionResource> all = index().getOrDefault(resource, List.of());
        if (subresource == null || subresource.isEmpty()) {
            return all;
        }
        return all.stream().filter(r -> served.storage(withSubresource(r, subresource)) != null).toList();
    }

    @Override
    public GroupVersionKind kindFor(GroupVersionResource resource, String subresource) {
        RESTStorage storage = served.storage(withSubresource(resource, subresource));
        if (storage == null) {
            return null;
        }
        if (storage instanceof GroupVersionKindProvider p) {
            return p.groupVersionKind(new GroupVersion(resource.group(), resource.version()));
        }
        return new GroupVersionKind(resource.group(), resource.version(), storage.kind());
    }

    @Override
    public GroupVersionKind kindFor(GroupVersionResource resource) {
        return kindFor(resource, "");
    }

    @Override
    public ResourceSchema resolveSchema(GroupVersionKind kind) {
        for (GroupVersionResource r : served.resources()) {
            if (!r.group().equals(kind.group()) || !r.version().equals(kind.version())) {
                continue;
            }
            RESTStorage storage = served.storage(r);
            if (storage != null && storage.kind().equals(kind.kind()) && storage.schema() != null) {
                return storage.schema();
            }
        }
        return null;
    }

    @Override
    public ObjectNode convert(ObjectNode obj, GroupVersionResource from, GroupVersionResource to, String subresource) {
        GroupVersionKind fromKind = kindFor(from, subresource);
        GroupVersionKind toKind = kindFor(to, subresource);
        if (fromKind == null || toKind == null) {
            throw StatusException.internalError("unable to convert to " + gvrString(to) + ": unknown kind", null);
        }
        if (fromKind.equals(toKind)) {
            // a subresource of its own kind (autoscaling/v1 Scale) is the same object at every version of its parent
            return obj.deepCopy();
        }
        StoreSpec source = spec(from);
        StoreSpec target = spec(to);
        if (source == null || target == null || !source.resourcePrefix().equals(target.resourcePrefix())) {
            throw StatusException.internalError("unable to convert " + fromKind.group() + "/" + fromKind.version()
                    + ", Kind=" + fromKind.kind() + " to " + toKind.group() + "/" + toKind.version(), null);
        }
        ObjectNode stored = source.storageConversion() == null ? obj : source.storageConversion().toStorage(obj);
        StorageConversion back = target.storageConversion();
        ObjectNode converted = back == null ? stored.deepCopy() : back.fromStorage(stored);
        if (converted == obj) {
            converted = obj.deepCopy();
        }
        String group = toKind.group();
        converted.put("apiVersion", group.isEmpty() ? toKind.version() : group + "/" + toKind.version());
        converted.put("kind", toKind.kind());
        return converted;
    }

    private Map<GroupVersionResource, List<GroupVersionResource>> index() {
        Map<GroupVersionResource, List<GroupVersionResource>> i = index;
        if (i != null) {
            return i;
        }
        Map<String, List<GroupVersionResource>> byPrefix = new HashMap<>();
        Map<GroupVersionResource, String> keys = new HashMap<>();
        for (GroupVersionResource r : served.resources()) {
            StoreSpec spec = spec(r);
            // A storage that is no generic Store shares nothing: it is only its own equivalent.
            String key = spec != null ? spec.resourcePrefix() : "\0" + r.group() + "/" + r.resource();
            keys.put(r, key);
            byPrefix.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        Map<GroupVersionResource, List<GroupVersionResource>> built = new HashMap<>();
        keys.forEach((r, key) -> built.put(r, List.copyOf(byPrefix.get(key))));
        index = built;
        return built;
    }

    /** The spec of the Store serving a resource (the parent's for its status), or null. */
    private StoreSpec spec(GroupVersionResource resource) {
        RESTStorage storage = served.storage(resource);
        if (storage instanceof GenericStore store) {
            return store.spec();
        }
        if (storage instanceof StatusREST status) {
            return status.store().spec();
        }
        return null;
    }

    private static GroupVersionResource withSubresource(GroupVersionResource r, String subresource) {
        return subresource == null || subresource.isEmpty() ? r
                : new GroupVersionResource(r.group(), r.version(), r.resource() + "/" + subresource);
    }

    /** A resource as Go prints a {@code schema.GroupVersionResource}. */
    static String gvrString(GroupVersionResource r) {
        return r.group() + "/" + r.version() + ", Resource=" + r.resource();
    }
}
