package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's autoscaling/v2 defaults (SetDefaults_HorizontalPodAutoscaler): {@code minReplicas} 1; with
 * no metrics, 80% average CPU utilization; and when a behavior is given, each of its rules completed
 * with kube's scale-up (no stabilization, the larger of 4 pods or 100% every 15 s) and scale-down
 * (300 s stabilization, 100% every 15 s) defaults.
 */
final class HPADefaults {
    static final int DEFAULT_CPU_UTILIZATION = 80;

    private HPADefaults() {
    }

    static void setDefaults(ObjectNode spec) {
        if (spec.path("minReplicas").isMissingNode() || spec.path("minReplicas").isNull()) {
            spec.put("minReplicas", 1);
        }
        if (spec.path("metrics").isEmpty()) {
            spec.putArray("metrics").add(cpuUtilization(DEFAULT_CPU_UTILIZATION));
        }
        if (spec.get("behavior") instanceof ObjectNode behavior) {
            behavior.set("scaleUp", rules(behavior.get("scaleUp"), 0, policy("Pods", 4, 15), policy("Percent", 100, 15)));
            behavior.set("scaleDown", rules(behavior.get("scaleDown"), 300, policy("Percent", 100, 15)));
        }
    }

    /** A Resource metric on CPU with an average utilization target. */
    static ObjectNode cpuUtilization(int percent) {
        ObjectNode metric = JsonNodeFactory.instance.objectNode().put("type", "Resource");
        ObjectNode resource = metric.putObject("resource").put("name", "cpu");
        resource.putObject("target").put("type", "Utilization").put("averageUtilization", percent);
        return metric;
    }

    /** The given rules over kube's defaults: each field given replaces the default one. */
    private static ObjectNode rules(JsonNode given, int stabilizationWindowSeconds, ObjectNode... policies) {
        ObjectNode rules = JsonNodeFactory.instance.objectNode();
        rules.put("stabilizationWindowSeconds", stabilizationWindowSeconds);
        rules.put("selectPolicy", "Max");
        ArrayNode list = rules.putArray("policies");
        for (ObjectNode p : policies) {
            list.add(p);
        }
        if (given instanceof ObjectNode g) {
            for (String field : new String[] {"stabilizationWindowSeconds", "selectPolicy", "policies", "tolerance"}) {
                if (g.hasNonNull(field)) {
                    rules.set(field, g.get(field));
                }
            }
        }
        return rules;
    }

    private static ObjectNode policy(String type, int value, int periodSeconds) {
        return JsonNodeFactory.instance.objectNode().put("type", type).put("value", value).put("periodSeconds", periodSeconds);
    }
}
