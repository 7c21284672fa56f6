package io.kubelix.api.schema;

import java.util.Objects;

/** An API group at one version. The core group is the empty string and is served under {@code /api}. */
public record GroupVersion(String group, String version) {
    public GroupVersion {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
    }

    /** Parses an {@code apiVersion} value: {@code v1} or {@code apps/v1}. */
    public static GroupVersion parse(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? new GroupVersion("", apiVersion)
                : new GroupVersion(apiVersion.substring(0, slash), apiVersion.substring(slash + 1));
    }

    /** The {@code apiVersion} string of objects in this group version. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The URL path of this group version: {@code /api/v1} or {@code /apis/apps/v1}. */
    public String path() {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }

    @Override
    public String toString() {
        return apiVersion();
    }
}
