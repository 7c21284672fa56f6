package io.kubelix.api.registry;

import io.kubelix.api.storage.StorageInterface;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Handed to {@link RESTStorageProvider#newRESTStorage}: where a resource's objects are stored
 * (the StorageFactory's choice of backend and key prefix) and the generic Store built on top.
 * The storage and everything core-runtime keeps for it outlive the provider, so updating a
 * resource bundle keeps its data and watches.
 */
@ProviderType
public interface RESTOptionsGetter {

    /** The generic Store (genericregistry.Store) for a resource, parameterised by its strategies. */
    StandardStorage newStore(StoreSpec spec);

    /**
     * The {@code <resource>/status} subresource of a Store from {@link #newStore} (kube's
     * StatusREST): the same storage, with {@code statusStrategy} as its update strategy. Serve it
     * as {@code "<resource>/status"} in the {@link APIGroupInfo}; discovery then lists it with the
     * verbs get, patch and update. The status strategy usually keeps everything but the status
     * ({@link StatusStrategies#keepOnlyStatus}), and the main strategy keeps the status
     * ({@link StatusStrategies#resetStatus}).
     *
     * @throws IllegalArgumentException when {@code store} was not built by {@link #newStore}
     */
    default StatusStorage newStatusStore(StandardStorage store, RESTUpdateStrategy statusStrategy) {
        throw new UnsupportedOperationException("this RESTOptionsGetter builds no status subresources");
    }

    /**
     * The {@code <resource>/scale} subresource of a Store from {@link #newStore} (kube's
     * ScaleREST): GET answers an {@code autoscaling/v1 Scale} with the parent's name, namespace,
     * uid, resourceVersion and creationTimestamp, {@code spec.replicas}, {@code status.replicas}
     * and {@code status.selector}; PUT and PATCH of a Scale set the parent's replicas through the
     * parent's update (its strategies, admission and generation), with the Scale's
     * resourceVersion, when given, as precondition (409 Conflict when stale). A missing parent is
     * 404; negative replicas are 422 {@code spec.replicas}. Serve it as {@code "<resource>/scale"};
     * discovery lists it as {@code autoscaling/v1 Scale} with the verbs get, patch and update.
     *
     * @throws IllegalArgumentException when {@code store} was not built by {@link #newStore}
     */
    default ScaleStorage newScaleStore(StandardStorage store, ScaleSubresource scale) {
        throw new UnsupportedOperationException("this RESTOptionsGetter builds no scale subresources");
    }

    /**
     * Raw storage under a key prefix, for state a resource keeps beside its objects (such as an
     * allocator's bitmap). The prefix must not overlap any resource's.
     */
    StorageInterface storage(String resourcePrefix);
}
