package io.kubelix.api.schema;

import java.util.Objects;

/** A resource of an API group, independent of version: {@code configmaps}, {@code deployments.apps}. */
public record GroupResource(String group, String resource) {
    public GroupResource {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(resource, "resource");
    }

    public static GroupResource of(String group, String resource) {
        return new GroupResource(group, resource);
    }

    /** kube-apiserver's string form: {@code resource.group}, or {@code resource} for the core group. */
    @Override
    public String toString() {
        return group.isEmpty() ? resource : resource + "." + group;
    }
}
