package io.kubelix.api.schema;

/** A kind of object in an API group version, such as {@code apps/v1, Kind=Deployment}. */
public record GroupVersionKind(String group, String version, String kind) {
    public static GroupVersionKind of(GroupVersion gv, String kind) {
        return new GroupVersionKind(gv.group(), gv.version(), kind);
    }

    public GroupVersion groupVersion() {
        return new GroupVersion(group, version);
    }

    @Override
    public String toString() {
        return groupVersion().apiVersion() + ", Kind=" + kind;
    }
}
