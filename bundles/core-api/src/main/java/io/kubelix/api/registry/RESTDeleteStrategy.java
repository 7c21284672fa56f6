package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * rest.RESTDeleteStrategy with rest.GarbageCollectionDeleteStrategy and
 * rest.RESTGracefulDeleteStrategy: what the generic Store asks a resource when an object is
 * deleted. Every method has kube-apiserver's default, so most resources need no delete strategy.
 *
 * <p>The Store always honours {@code metadata.finalizers}: an object that has any is only marked
 * ({@code deletionTimestamp}, {@code deletionGracePeriodSeconds: 0}) and is removed by the update
 * that takes its last finalizer away.
 */
@ConsumerType
public interface RESTDeleteStrategy {

    /** rest.GarbageCollectionPolicy: what a delete without a propagation policy does to dependents. */
    enum GarbageCollectionPolicy {
        /** Dependents are deleted in the background (the default of nearly every resource). */
        DELETE_DEPENDENTS,
        /** Dependents are orphaned: a delete without a policy adds the {@code orphan} finalizer. */
        ORPHAN_DEPENDENTS,
        /** The resource is never garbage collected: {@code orphan} and {@code foregroundDeletion} are never set. */
        UNSUPPORTED
    }

    /** DefaultGarbageCollectionPolicy; {@link GarbageCollectionPolicy#DELETE_DEPENDENTS} unless overridden. */
    default GarbageCollectionPolicy defaultGarbageCollectionPolicy(RequestContext ctx) {
        return GarbageCollectionPolicy.DELETE_DEPENDENTS;
    }

    /**
     * CheckGracefulDelete: the grace period, in seconds, to delete {@code obj} with, or null when
     * it is deleted at once. A resource that deletes gracefully (such as pods) answers the
     * client's {@code options.gracePeriodSeconds()} or its own default; the Store then sets
     * {@code deletionTimestamp} to now plus that period and keeps the object until a later delete
     * with a zero period. The default is null: {@code gracePeriodSeconds} is ignored, as
     * kube-apiserver ignores it for resources without a graceful strategy.
     */
    default Long checkGracefulDelete(RequestContext ctx, ObjectNode obj, DeleteOptions options) {
        return null;
    }

    /**
     * Whether {@code obj} has finalizers of the resource's own beyond {@code metadata.finalizers},
     * such as a namespace's {@code spec.finalizers}. While it has, a deleted object is only marked
     * for deletion, as with {@code metadata.finalizers}, and the update that leaves it with none
     * (and no {@code metadata.finalizers}) removes it. The default is false.
     */
    default boolean hasPendingFinalizers(ObjectNode obj) {
        return false;
    }

    /**
     * Changes an object the Store is marking for deletion (its {@code deletionTimestamp} is set),
     * such as a namespace whose {@code status.phase} becomes {@code Terminating}. The default
     * changes nothing.
     */
    default void prepareForDeletion(ObjectNode obj) {
    }

    /**
     * Store.ReturnDeletedObject: whether a delete that removes the object at once is answered with
     * the object rather than a success Status, as kube answers for pods, services, namespaces,
     * service accounts, persistent volumes and their claims, resource quotas and the storage.k8s.io
     * kinds (typed clients such as client-java's expect the object back). The default is false.
     */
    default boolean returnDeletedObject() {
        return false;
    }

    /** kube-apiserver's default delete strategy, but answering deletes with the deleted object. */
    static RESTDeleteStrategy returningDeletedObject() {
        return new RESTDeleteStrategy() {
            @Override
            public boolean returnDeletedObject() {
                return true;
            }
        };
    }
}
