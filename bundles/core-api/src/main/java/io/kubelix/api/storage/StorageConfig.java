package io.kubelix.api.storage;

import io.kubelix.api.schema.GroupResource;

import java.util.Objects;

/**
 * What a backend needs to serve one resource.
 *
 * @param groupResource  the resource, for errors and logs
 * @param resourcePrefix the key prefix of its objects, such as {@code /configmaps}; the backend adds
 *                       its own prefix (etcd's {@code /registry})
 * @param transformer    what every value of the resource passes through on its way to and from the
 *                       store (kube's storage.Config.Transformer: encryption at rest); the backend
 *                       must apply it to every value it writes and reads
 */
public record StorageConfig(GroupResource groupResource, String resourcePrefix, ValueTransformer transformer) {

    public StorageConfig {
        Objects.requireNonNull(transformer, "transformer");
    }

    /** A resource whose values are stored as they are ({@link ValueTransformer#IDENTITY}). */
    public StorageConfig(GroupResource groupResource, String resourcePrefix) {
        this(groupResource, resourcePrefix, ValueTransformer.IDENTITY);
    }
}
