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


/**
 * A resource's storage as core-runtime keeps it: forwards to the current backend's storage for
 * the prefix and asks the backend again when the backend service changes.
 */
final class BackendStorage implements StorageInterface {
    private record Bound(StorageBackend backend, StorageInterface storage) {
    }

    private final StorageConfig config;
    private final StorageFactory factory;
    /** How long a backend that refused with a 503 may still be the factory's before the refusal stands. */
    private static final java.time.Duration LEAVING = java.time.Duration.ofSeconds(2);
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
                    b = bind(backend);
                    bound = b;
                }
            }
        }
        return b;
    }

    /**
     * The backend's storage for this resource. A backend stopped by its bundle's update between the
     * factory handing it out and this call refuses with a 503; the factory's next backend (it waits
     * for the new revision) is asked instead.
     */
    private Bound bind(StorageBackend backend) {
        try {
            return new Bound(backend, backend.forResource(config));
        } catch (StatusException e) {
            StorageBackend next = factory.backend();
            if (e.code() != 503 || next == backend) {
                throw e;
            }
            return new Bound(next, next.forResource(config));
        }
    }

    /**
     * The storage to run an operation again on after {@code failure} on {@code tried}'s. A backend
     * whose bundle is being updated refuses what it can no longer hand over with a 503, before doing
     * it; the operation then runs again through this storage, so on the new revision (the factory
     * waits for it), and again should that revision be updated in turn (FileInstall's update is
     * followed by a refresh): the update costs the request nothing. A backend that refuses before
     * the factory has seen it leave is given a moment to; any other failure is rethrown.
     */
    private StorageInterface retryAfter(Bound tried, StatusException failure) {
        if (failure.code() != 503) {
            throw failure;
        }
        if (!factory.awaitLeaving(tried.backend(), LEAVING)) {
            throw failure;
        }
        return this;
    }

    @Override
    public Versioner versioner() {
        return APIObjectVersioner.INSTANCE;
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        Bound b = bound();
        try {
            return b.storage().create(key, obj);
        } catch (StatusException e) {
            return retryAfter(b, e).create(key, obj);
        }
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        Bound b = bound();
        try {
            return b.storage().delete(key, preconditions, validateDeletion);
        } catch (StatusException e) {
            return retryAfter(b, e).delete(key, preconditions, validateDeletion);
        }
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion,
                             ObjectNode cachedExisting) {
        Bound b = bound();
        try {
            return b.storage().delete(key, preconditions, validateDeletion, cachedExisting);
        } catch (StatusException e) {
            return retryAfter(b, e).delete(key, preconditions, validateDeletion, cachedExisting);
        }
    }

    @Override
    public Watch watch(String key, ListOptions opts) {
        Bound b = bound();
        try {
            return b.storage().watch(key, opts);
        } catch (StatusException e) {
            return retryAfter(b, e).watch(key, opts);
        }
    }

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        Bound b = bound();
        try {
            return b.storage().get(key, opts);
        } catch (StatusException e) {
            return retryAfter(b, e).get(key, opts);
        }
    }

    @Override
    public ListResult getList(String key, ListOptions opts) {
        Bound b = bound();
        try {
            return b.storage().getList(key, opts);
        } catch (StatusException e) {
            return retryAfter(b, e).getList(key, opts);
        }
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate) {
        Bound b = bound();
        try {
            return b.storage().guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate);
        } catch (StatusException e) {
            return retryAfter(b, e).guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate);
        }
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate, ObjectNode cachedExisting) {
        Bound b = bound();
        try {
            return b.storage().guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate, cachedExisting);
        } catch (StatusException e) {
            return retryAfter(b, e).guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate, cachedExisting);
        }
    }

    @Override
    public long count(String key) {
        Bound b = bound();
        try {
            return b.storage().count(key);
        } catch (StatusException e) {
            return retryAfter(b, e).count(key);
        }
    }

    @Override
    public long currentResourceVersion() {
        Bound b = bound();
        try {
            return b.storage().currentResourceVersion();
        } catch (StatusException e) {
            return retryAfter(b, e).currentResourceVersion();
        }
    }
}
