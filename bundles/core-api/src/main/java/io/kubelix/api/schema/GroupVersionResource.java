package io.kubelix.api.schema;

/** A resource of an API group version, the unit the route table serves. */
public record GroupVersionResource(String group, String version, String resource) {
    public static GroupVersionResource of(GroupVersion gv, String resource) {
        return new GroupVersionResource(gv.group(), gv.version(), resource);
    }

    public GroupVersion groupVersion() {
        return new GroupVersion(group, version);
    }

    public GroupResource groupResource() {
        return new GroupResource(group, resource);
    }

    @Override
    public String toString() {
        return groupVersion().apiVersion() + ", Resource=" + resource;
    }
}
