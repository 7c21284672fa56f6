package io.kubelix.api.registry;

import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * rest.GroupVersionKindProvider: a storage whose objects are of a kind from another group
 * version than the one it is served at, such as {@code deployments/scale} at {@code apps/v1}
 * serving {@code autoscaling/v1 Scale}. Discovery lists that group, version and kind, and
 * responses and patches carry its {@code apiVersion}.
 */
@ConsumerType
public interface GroupVersionKindProvider {

    /** The kind of the objects served when the storage is served at {@code containingGV}. */
    GroupVersionKind groupVersionKind(GroupVersion containingGV);
}
