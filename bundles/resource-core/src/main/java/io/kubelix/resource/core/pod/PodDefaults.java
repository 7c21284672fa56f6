package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateDefaults;
import io.kubelix.resource.core.common.Nodes;

/**
 * kube's defaulting of a Pod (pkg/apis/core/v1/defaults.go SetDefaults_Pod on top of the pod spec
 * defaults shared with templates, {@link PodTemplateDefaults}), and what kube's admission plugins
 * add to every new pod (Priority, DefaultTolerationSeconds). Each method works in place on the
 * pod's {@code spec}; fields of the wrong JSON type are left for validation.
 */
final class PodDefaults {
    /** DefaultTolerationSeconds' default for the not-ready and unreachable taints. */
    static final int DEFAULT_TOLERATION_SECONDS = 300;
    static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
    static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";

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

    /**
     * What kube's admission adds to a new pod: the Priority plugin's {@code priority: 0} and
     * {@code preemptionPolicy: PreemptLowerPriority} when no priority class is named, and
     * DefaultTolerationSeconds' tolerations of the not-ready and unreachable taints for 300 s
     * unless the pod already tolerates them.
     */
    static void setCreateDefaults(ObjectNode spec) {
        if (Nodes.text(spec, "priorityClassName").isEmpty()) {
            if (Nodes.isUnset(spec, "priority")) {
                spec.put("priority", 0);
            }
            if (Nodes.isUnset(spec, "preemptionPolicy")) {
                spec.put("preemptionPolicy", "PreemptLowerPriority");
            }
        }
        JsonNode existing = spec.get("tolerations");
        if (existing != null && !existing.isNull() && !existing.isArray()) {
            return;
        }
        boolean notReady = tolerates(existing, NOT_READY_TAINT);
        boolean unreachable = tolerates(existing, UNREACHABLE_TAINT);
        if (notReady && unreachable) {
            return;
        }
        ArrayNode tolerations = existing instanceof ArrayNode a ? a : spec.putArray("tolerations");
        if (!notReady) {
            addToleration(tolerations, NOT_READY_TAINT);
        }
        if (!unreachable) {
            addToleration(tolerations, UNREACHABLE_TAINT);
        }
    }

    /** Whether a toleration names the NoExecute taint {@code key}, or every key, as DefaultTolerationSeconds reads it. */
    private static boolean tolerates(JsonNode tolerations, String key) {
        if (tolerations == null) {
            return false;
        }
        for (JsonNode t : tolerations) {
            String effect = Nodes.text(t, "effect");
            String tKey = Nodes.text(t, "key");
            if ((tKey.equals(key) || tKey.isEmpty()) && (effect.isEmpty() || effect.equals("NoExecute"))) {
                return true;
            }
        }
        return false;
    }

    private static void addToleration(ArrayNode tolerations, String key) {
        ObjectNode t = tolerations.addObject();
        t.put("effect", "NoExecute");
        t.put("key", key);
        t.put("operator", "Exists");
        t.put("tolerationSeconds", DEFAULT_TOLERATION_SECONDS);
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
