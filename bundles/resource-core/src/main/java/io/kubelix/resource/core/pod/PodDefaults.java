package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateDefaults;
import io.kubelix.resource.core.common.Nodes;

/**
 * kube's defaulting of a Pod (pkg/apis/core/v1/defaults.go SetDefaults_Pod on top of the pod spec
 * defaults shared with templates, {@link PodTemplateDefaults}). What kube's admission plugins add
 * to a new pod (priority, default tolerations) is theirs: see {@link DefaultTolerationSeconds}.
 * Each method works in place on the pod's {@code spec}; fields of the wrong JSON type are left for
 * validation.
 */
final class PodDefaults {

    private PodDefaults() {
    }

    /**
     * Defaults applied to every pod written (kube defaults every decoded body): the pod spec's, then
     * SetDefaults_Pod (requests from limits, enableServiceLinks, host ports under hostNetwork), and
     * the v1 conversion's mirror of {@code serviceAccountName} in the deprecated {@code serviceAccount}.
     */
    static void setPodSpecDefaults(ObjectNode spec) {
        PodTemplateDefaults.setPodSpecDefaults(spec);
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode c : spec.path(list)) {
                if (c instanceof ObjectNode container) {
                    requestsFromLimits(container);
                    if (Nodes.isTrue(spec, "hostNetwork")) {
                        hostPortsFromContainerPorts(container);
                    }
                }
            }
        }
        if (Nodes.isUnset(spec, "enableServiceLinks")) {
            spec.put("enableServiceLinks", true);
        }
        String serviceAccountName = Nodes.text(spec, "serviceAccountName");
        String deprecated = Nodes.text(spec, "serviceAccount");
        if (serviceAccountName.isEmpty() && !deprecated.isEmpty()) {
            spec.put("serviceAccountName", deprecated);
        } else if (!serviceAccountName.isEmpty()) {
            spec.put("serviceAccount", serviceAccountName);
        }
    }

    /** A limit without a request makes the request equal to the limit. */
    private static void requestsFromLimits(ObjectNode container) {
        if (!(container.path("resources").get("limits") instanceof ObjectNode limits) || limits.isEmpty()) {
            return;
        }
        ObjectNode resources = (ObjectNode) container.get("resources");
        JsonNode requests = resources.get("requests");
        if (requests != null && !requests.isNull() && !requests.isObject()) {
            return;
        }
        ObjectNode r = requests instanceof ObjectNode o ? o : resources.putObject("requests");
        limits.fields().forEachRemaining(e -> {
            if (!r.has(e.getKey())) {
                r.set(e.getKey(), e.getValue().deepCopy());
            }
        });
    }

    /** defaultHostNetworkPorts: a host-network container's ports are its host ports. */
    private static void hostPortsFromContainerPorts(ObjectNode container) {
        for (JsonNode p : container.path("ports")) {
            if (p instanceof ObjectNode port && port.path("hostPort").asLong(0) == 0 && port.has("containerPort")) {
                port.set("hostPort", port.get("containerPort").deepCopy());
            }
        }
    }
}
