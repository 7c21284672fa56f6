package io.kubelix.api.informer;

import io.kubelix.api.schema.GroupVersionResource;

/**
 * The resource that serves a kind in a version, and whether its objects live in namespaces
 * (client-go's {@code meta.RESTMapping}).
 */
public record RESTMapping(GroupVersionResource resource, boolean namespaced) {
}
