package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StorageConversion;

import java.util.List;

/**
 * The conversion between autoscaling/v1 and the stored autoscaling/v2 HorizontalPodAutoscaler, as
 * kube converts them: v1's {@code targetCPUUtilizationPercentage} is v2's CPU utilization metric and
 * {@code currentCPUUtilizationPercentage} its current value; what v1 cannot express (other metrics,
 * the behavior, conditions, other current metrics) rides in kube's {@code autoscaling.alpha.kubernetes.io/*}
 * annotations, so an object read and written back through v1 keeps it.
 */
final class HPAV1Conversion implements StorageConversion {
    static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";
    static final String BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior";
    static final String CONDITIONS = "autoscaling.alpha.kubernetes.io/conditions";
    static final String CURRENT_METRICS = "autoscaling.alpha.kubernetes.io/current-metrics";

    private final ObjectMapper mapper;

    HPAV1Conversion(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** A v1 object as v2. */
    @Override
    public ObjectNode toStorage(ObjectNode v1) {
        ObjectNode v2 = mapper.createObjectNode().put("apiVersion", "autoscaling/v2").put("kind", "HorizontalPodAutoscaler");
        ObjectNode meta = v1.path("metadata").isObject() ? v1.path("metadata").deepCopy() : mapper.createObjectNode();
        v2.set("metadata", meta);
        ObjectNode annotations = meta.path("annotations").isObject() ? (ObjectNode) meta.get("annotations") : null;
        JsonNode spec1 = v1.path("spec");
        ObjectNode spec = v2.putObject("spec");
        copy(spec1, spec, "scaleTargetRef", "minReplicas", "maxReplicas");
        ArrayNode metrics = mapper.createArrayNode();
        if (spec1.hasNonNull("targetCPUUtilizationPercentage")) {
            metrics.add(HPADefaults.cpuUtilization(spec1.get("targetCPUUtilizationPercentage").asInt()));
        }
        fromAnnotation(annotations, METRICS).forEach(metrics::add);
        if (!metrics.isEmpty()) {
            spec.set("metrics", metrics);
        }
        JsonNode behavior = fromAnnotation(annotations, BEHAVIOR);
        if (behavior.isObject()) {
            spec.set("behavior", behavior);
        }
        JsonNode status1 = v1.get("status");
        if (status1 != null && status1.isObject()) {
            ObjectNode status = v2.putObject("status");
            copy(status1, status, "observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas");
            if (status.path("currentReplicas").asInt(0) == 0) {
                status.remove("currentReplicas"); // omitempty in v2
            }
            ArrayNode current = mapper.createArrayNode();
            if (status1.hasNonNull("currentCPUUtilizationPercentage")) {
                ObjectNode metric = current.addObject().put("type", "Resource");
                metric.putObject("resource").put("name", "cpu").putObject("current")
                        .put("averageUtilization", status1.get("currentCPUUtilizationPercentage").asInt());
            }
            fromAnnotation(annotations, CURRENT_METRICS).forEach(current::add);
            if (!current.isEmpty()) {
                status.set("currentMetrics", current);
            }
            JsonNode conditions = fromAnnotation(annotations, CONDITIONS);
            if (conditions.isArray() && !conditions.isEmpty()) {
                status.set("conditions", conditions);
            }
        }
        if (annotations != null) {
            annotations.remove(List.of(METRICS, BEHAVIOR, CONDITIONS, CURRENT_METRICS));
            if (annotations.isEmpty()) {
                meta.remove("annotations");
            }
        }
        return v2;
    }

    /** A stored v2 object as v1. */
    @Override
    public ObjectNode fromStorage(ObjectNode v2) {
        ObjectNode v1 = mapper.createObjectNode().put("apiVersion", "autoscaling/v1").put("kind", "HorizontalPodAutoscaler");
        ObjectNode meta = v2.path("metadata").isObject() ? v2.path("metadata").deepCopy() : mapper.createObjectNode();
        v1.set("metadata", meta);
        JsonNode spec2 = v2.path("spec");
        ObjectNode spec = v1.putObject("spec");
        copy(spec2, spec, "scaleTargetRef", "minReplicas", "maxReplicas");
        ArrayNode others = mapper.createArrayNode();
        for (JsonNode metric : spec2.path("metrics")) {
            JsonNode target = metric.path("resource").path("target");
            if (!spec.has("targetCPUUtilizationPercentage") && "Resource".equals(metric.path("type").asText())
                    && "cpu".equals(metric.path("resource").path("name").asText())
                    && "Utilization".equals(target.path("type").asText()) && target.hasNonNull("averageUtilization")) {
                spec.put("targetCPUUtilizationPercentage", target.get("averageUtilization").asInt());
            } else {
                others.add(metric.deepCopy());
            }
        }
        toAnnotation(meta, METRICS, others.isEmpty() ? null : others);
        toAnnotation(meta, BEHAVIOR, spec2.get("behavior"));
        JsonNode status2 = v2.get("status");
        if (status2 != null && status2.isObject()) {
            ObjectNode status = v1.putObject("status");
            copy(status2, status, "observedGeneration", "lastScaleTime");
            status.put("currentReplicas", status2.path("currentReplicas").asInt(0));
            status.put("desiredReplicas", status2.path("desiredReplicas").asInt(0));
            ArrayNode otherCurrent = mapper.createArrayNode();
            for (JsonNode metric : status2.path("currentMetrics")) {
                JsonNode current = metric.path("resource").path("current");
                if (!status.has("currentCPUUtilizationPercentage") && "Resource".equals(metric.path("type").asText())
                        && "cpu".equals(metric.path("resource").path("name").asText())
                        && current.hasNonNull("averageUtilization")) {
                    status.put("currentCPUUtilizationPercentage", current.get("averageUtilization").asInt());
                } else {
                    otherCurrent.add(metric.deepCopy());
                }
            }
            toAnnotation(meta, CURRENT_METRICS, otherCurrent.isEmpty() ? null : otherCurrent);
            JsonNode conditions = status2.get("conditions");
            toAnnotation(meta, CONDITIONS, conditions == null || conditions.isEmpty() ? null : conditions);
        }
        return v1;
    }

    private static void copy(JsonNode from, ObjectNode to, String... fields) {
        for (String f : fields) {
            if (from.has(f)) {
                to.set(f, from.get(f).deepCopy());
            }
        }
    }

    /** The JSON an annotation holds, or a missing node when absent or unreadable (kube ignores those too). */
    private JsonNode fromAnnotation(ObjectNode annotations, String key) {
        if (annotations == null || !annotations.hasNonNull(key)) {
            return MissingNode.getInstance();
        }
        try {
            return mapper.readTree(annotations.get(key).asText());
        } catch (JsonProcessingException e) {
            return MissingNode.getInstance();
        }
    }

    private void toAnnotation(ObjectNode meta, String key, JsonNode value) {
        if (value == null || value.isNull()) {
            return;
        }
        ObjectNode annotations = meta.path("annotations").isObject() ? (ObjectNode) meta.get("annotations")
                : meta.putObject("annotations");
        try {
            annotations.put(key, mapper.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }
}
