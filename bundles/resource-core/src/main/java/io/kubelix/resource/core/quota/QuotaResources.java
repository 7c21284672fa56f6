package io.kubelix.resource.core.quota;

import io.kubelix.api.schema.GroupVersionResource;

import java.util.Map;

/**
 * The object counts a ResourceQuota can limit (kube's generic object count evaluators):
 * {@code count/<resource>} for the core group and {@code count/<resource>.<group>} for others, and
 * kube's older names for the core ones ({@code configmaps}, {@code pods}, ...). Each names the
 * resource whose objects it counts; the version is the group's served one.
 */
final class QuotaResources {
    /** kube's legacy object count names and the core resources they count. */
    static final Map<String, String> LEGACY = Map.of("pods", "pods", "services", "services",
            "replicationcontrollers", "replicationcontrollers", "resourcequotas", "resourcequotas",
            "secrets", "secrets", "configmaps", "configmaps", "persistentvolumeclaims", "persistentvolumeclaims");
    /** The version counted for groups not served at v1. */
    private static final Map<String, String> VERSIONS = Map.of("autoscaling", "v2");

    private QuotaResources() {
    }

    /** The resource a quota resource name counts, or null when it is not an object count. */
    static GroupVersionResource counted(String quotaResource) {
        String legacy = LEGACY.get(quotaResource);
        if (legacy != null) {
            return new GroupVersionResource("", "v1", legacy);
        }
        if (!quotaResource.startsWith("count/")) {
            return null;
        }
        String rest = quotaResource.substring("count/".length());
        int dot = rest.indexOf('.');
        String resource = dot < 0 ? rest : rest.substring(0, dot);
        String group = dot < 0 ? "" : rest.substring(dot + 1);
        return resource.isEmpty() ? null : new GroupVersionResource(group, VERSIONS.getOrDefault(group, "v1"), resource);
    }

    /** Whether the quota resource name counts objects of {@code group}/{@code resource}. */
    static boolean counts(String quotaResource, String group, String resource) {
        GroupVersionResource gvr = counted(quotaResource);
        return gvr != null && gvr.group().equals(group) && gvr.resource().equals(resource);
    }
}
