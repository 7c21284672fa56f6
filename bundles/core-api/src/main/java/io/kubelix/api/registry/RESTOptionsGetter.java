package io.kubelix.api.registry;

import io.kubelix.api.storage.StorageInterface;

/**
 * Handed to {@link RESTStorageProvider#newRESTStorage}: where a resource's objects are stored
 * (the StorageFactory's choice of backend and key prefix) and the generic Store built on top.
 * The storage and everything core-runtime keeps for it outlive the provider, so updating a
 * resource bundle keeps its data and watches.
 */
public interface RESTOptionsGetter {

    /** The generic Store (genericregistry.Store) for a resource, parameterised by its strategies. */
    StandardStorage newStore(StoreSpec spec);

    /**
     * Raw storage under a key prefix, for state a resource keeps beside its objects (such as an
     * allocator's bitmap). The prefix must not overlap any resource's.
     */
    StorageInterface storage(String resourcePrefix);
}
