package io.kubelix.runtime.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.ValueTransformer;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Versioner;
import io.kubelix.api.storage.Watch;

import java.util.function.Function;

/**
 * A resource's storage as core-runtime keeps it: forwards to the current backend's storage for
 * the prefix and asks the backend again when the backend service changes.
 */
final class BackendStorage implements StorageInterface {
    private record Bound(StorageBackend backend, StorageInterface storage) {
    }

    private final StorageConfig config;
    private final StorageFactory factory;
    private volatile Bound bound;

    BackendStorage(GroupResource groupResource, String resourcePrefix, ValueTransformer transformer,
                   StorageFactory factory) {
        this.config = new StorageConfig(groupResource, resourcePrefix, transformer);
        this.factory = factory;
    }

    private Bound bound() {
        StorageBackend backend = factory.backend();
        Bound b = bound;
        if (b == null || b.backend() != backend) {
            synchronized (this) {
                b = bound;
                if (b == null || b.backend() != backend) {
                    b = new Bound(backend, backend.forResource(config));
                    bound = b;
                }
            }
        }
        return b;
    }

    /**
     * Runs {@code op} on the current backend's storage. A backend whose bundle is being updated
     * refuses what it can no longer hand over with a 503, before doing it; the operation then runs
     * again on the new revision (the factory waits for it), so the update costs the request nothing.
     */
    private <T> T call(Function<StorageInterface, T> op) {
        Bound b = bound();
        try {
            return op.apply(b.storage());
        } catch (StatusException e) {
            if (e.code() != 503) {
                throw e;
            }
            Bound now = bound();
            if (now.backend() == b.backend()) {
                throw e;
            }
            return op.apply(now.storage());
        }
    }

    @Override
    public Versioner versioner() {
        return APIObjectVersioner.INSTANCE;
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        return call(st -> st.create(key, obj));
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        return call(st -> st.delete(key, preconditions, validateDeletion));
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion,
                             ObjectNode cachedExisting) {
        return call(st -> st.delete(key, preconditions, validateDeletion, cachedExisting));
    }

    @Override
    public Watch watch(String key, ListOptions opts) {
        return call(st -> st.watch(key, opts));
    }

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        return call(st -> st.get(key, opts));
    }

    @Override
    public ListResult getList(String key, ListOptions opts) {
        return call(st -> st.getList(key, opts));
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate) {
        return call(st -> st.guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate));
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate, ObjectNode cachedExisting) {
        return call(st -> st.guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate, cachedExisting));
    }

    @Override
    public long count(String key) {
        return call(st -> st.count(key));
    }

    @Override
    public long currentResourceVersion() {
        return call(st -> st.currentResourceVersion());
    }
}
