package io.kubelix.aggregator;

import io.kubelix.api.schema.GroupVersion;

import java.util.Map;

/**
 * The discovery priorities kube-apiserver gives the local APIServices of its own groups
 * ({@code apiVersionPriorities} of kube-apiserver's aggregator setup), and those kube's CRD
 * registration gives every other group version served in-process (1000 for the group, 100 for the
 * version).
 */
final class APIServicePriorities {
    static final Priority OTHER = new Priority(1000, 100, false);

    /** A group's minimum priority and a version's priority within it; built in when kube lists it. */
    record Priority(int group, int version, boolean builtIn) {
    }

    private static final Map<String, Priority> KUBE = Map.ofEntries(
            entry("", "v1", 18000, 1),
            entry("apps", "v1", 17800, 15),
            entry("events.k8s.io", "v1", 17750, 15),
            entry("authentication.k8s.io", "v1", 17700, 15),
            entry("authorization.k8s.io", "v1", 17600, 15),
            entry("autoscaling", "v2", 17500, 30),
            entry("autoscaling", "v1", 17500, 15),
            entry("batch", "v1", 17400, 15),
            entry("certificates.k8s.io", "v1", 17300, 15),
            entry("networking.k8s.io", "v1", 17200, 15),
            entry("policy", "v1", 17100, 15),
            entry("rbac.authorization.k8s.io", "v1", 17000, 15),
            entry("storage.k8s.io", "v1", 16800, 15),
            entry("apiextensions.k8s.io", "v1", 16700, 15),
            entry("admissionregistration.k8s.io", "v1", 16700, 15),
            entry("scheduling.k8s.io", "v1", 16600, 15),
            entry("coordination.k8s.io", "v1", 16500, 15),
            entry("node.k8s.io", "v1", 16300, 15),
            entry("discovery.k8s.io", "v1", 16200, 15),
            entry("flowcontrol.apiserver.k8s.io", "v1", 16100, 21),
            entry("apiregistration.k8s.io", "v1", 18000, 15));

    private APIServicePriorities() {
    }

    private static Map.Entry<String, Priority> entry(String group, String version, int groupPriority, int versionPriority) {
        return Map.entry(version + "." + group, new Priority(groupPriority, versionPriority, true));
    }

    static Priority of(GroupVersion gv) {
        return KUBE.getOrDefault(gv.version() + "." + gv.group(), OTHER);
    }
}
