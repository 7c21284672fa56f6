package io.kubelix.api.storage;

import io.kubelix.api.schema.GroupResource;

/**
 * What a backend needs to serve one resource.
 *
 * @param groupResource  the resource, for errors and logs
 * @param resourcePrefix the key prefix of its objects, such as {@code /configmaps}; the backend adds
 *                       its own prefix (etcd's {@code /registry})
 */
public record StorageConfig(GroupResource groupResource, String resourcePrefix) {
}
