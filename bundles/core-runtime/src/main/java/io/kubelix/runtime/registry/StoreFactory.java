package io.kubelix.runtime.registry;

import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.runtime.storage.StorageFactory;

/**
 * The RESTOptionsGetter handed to resource providers: generic Stores over the StorageFactory's
 * storages, with the server's admission chain.
 */
public final class StoreFactory implements RESTOptionsGetter {
    private final StorageFactory storageFactory;
    private final AdmissionChain admission;

    public StoreFactory(StorageFactory storageFactory, AdmissionChain admission) {
        this.storageFactory = storageFactory;
        this.admission = admission;
    }

    @Override
    public StandardStorage newStore(StoreSpec spec) {
        return new GenericStore(spec, storageFactory.storageFor(spec.groupResource(), spec.resourcePrefix()), admission);
    }

    @Override
    public StatusStorage newStatusStore(StandardStorage store, RESTUpdateStrategy statusStrategy) {
        if (!(store instanceof GenericStore generic)) {
            throw new IllegalArgumentException("a status subresource needs a Store built by newStore, not "
                    + store.getClass().getName());
        }
        return new StatusREST(generic.withUpdateStrategy(statusStrategy));
    }

    @Override
    public StorageInterface storage(String resourcePrefix) {
        return storageFactory.rawStorageFor(resourcePrefix);
    }
}
