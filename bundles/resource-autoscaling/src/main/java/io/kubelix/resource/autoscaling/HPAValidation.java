package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.support.quantity.InvalidQuantityException;
import io.kubelix.support.quantity.Quantity;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation) of an autoscaling/v2
 * object, with its field paths and messages: replica bounds, the scale target reference, each metric
 * (its source type, the one source it populates, its target) and the scaling behavior.
 */
final class HPAValidation {
    static final List<String> METRIC_SOURCE_TYPES = List.of("ContainerResource", "External", "Object", "Pods", "Resource");
    static final List<String> SELECT_POLICIES = List.of("Disabled", "Max", "Min");
    static final List<String> POLICY_TYPES = List.of("Percent", "Pods");
    static final int MAX_STABILIZATION_WINDOW_SECONDS = 3600;
    static final int MAX_PERIOD_SECONDS = 1800;

    private HPAValidation() {
    }

    static List<FieldError> validateSpec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode min = spec.get("minReplicas");
        long max = spec.path("maxReplicas").asLong(0);
        if (min != null && !min.isNull() && min.asLong() < 1) {
            errs.add(FieldError.invalid("spec.minReplicas", min.asLong(), "must be greater than or equal to 1"));
        }
        if (max < 1) {
            errs.add(FieldError.invalid("spec.maxReplicas", max, "must be greater than 0"));
        }
        if (min != null && !min.isNull() && max < min.asLong()) {
            errs.add(FieldError.invalid("spec.maxReplicas", max, "must be greater than or equal to `minReplicas`"));
        }
        errs.addAll(crossVersionObjectReference(spec.path("scaleTargetRef"), "spec.scaleTargetRef"));
        JsonNode metrics = spec.path("metrics");
        for (int i = 0; i < metrics.size(); i++) {
            errs.addAll(metric(metrics.get(i), "spec.metrics[" + i + "]"));
        }
        JsonNode behavior = spec.path("behavior");
        if (behavior.isObject()) {
            errs.addAll(scalingRules(behavior.get("scaleUp"), "spec.behavior.scaleUp"));
            errs.addAll(scalingRules(behavior.get("scaleDown"), "spec.behavior.scaleDown"));
        }
        return errs;
    }

    /** ValidateHorizontalPodAutoscalerStatusUpdate: replica counts are not negative. */
    static List<FieldError> validateStatus(JsonNode status) {
        List<FieldError> errs = new ArrayList<>(MetadataValidators.validateNonnegative(
                status.path("currentReplicas").asLong(0), "status.currentReplicas"));
        errs.addAll(MetadataValidators.validateNonnegative(status.path("desiredReplicas").asLong(0), "status.desiredReplicas"));
        return errs;
    }

    static List<FieldError> crossVersionObjectReference(JsonNode ref, String path) {
        List<FieldError> errs = new ArrayList<>();
        for (String field : new String[] {"kind", "name"}) {
            String value = ref.path(field).asText("");
            if (value.isEmpty()) {
                errs.add(FieldError.required(path + "." + field, ""));
            } else {
                NameValidators.isValidPathSegmentName(value).forEach(m -> errs.add(FieldError.invalid(path + "." + field,
                        value, m)));
            }
        }
        return errs;
    }

    private static List<FieldError> metric(JsonNode metric, String path) {
        List<FieldError> errs = new ArrayList<>();
        String type = metric.path("type").asText("");
        if (type.isEmpty()) {
            errs.add(FieldError.required(path + ".type", "must specify a metric source type"));
        }
        if (!METRIC_SOURCE_TYPES.contains(type)) {
            errs.add(FieldError.notSupported(path + ".type", type, METRIC_SOURCE_TYPES));
        }
        Set<String> present = new LinkedHashSet<>();
        for (String source : new String[] {"object", "pods", "resource", "external", "containerResource"}) {
            JsonNode s = metric.get(source);
            if (s != null && !s.isNull()) {
                present.add(source);
                if (present.size() == 1) {
                    errs.addAll(source(source, s, path + "." + source));
                }
            }
        }
        String expected = type.isEmpty() ? "" : Character.toLowerCase(type.charAt(0)) + type.substring(1);
        if (METRIC_SOURCE_TYPES.contains(type) && !present.contains(expected)) {
            errs.add(FieldError.required(path + "." + expected, "must populate information for the given metric source"));
        }
        if (present.size() != 1) {
            present.remove(expected);
            present.forEach(p -> errs.add(FieldError.forbidden(path + "." + p, "must populate the given metric source only")));
        }
        return errs;
    }

    private static List<FieldError> source(String source, JsonNode s, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode target = s.path("target");
        switch (source) {
            case "resource", "containerResource" -> {
                if (s.path("name").asText("").isEmpty()) {
                    errs.add(FieldError.required(path + ".name", "must specify a resource name"));
                }
                if (source.equals("containerResource") && s.path("container").asText("").isEmpty()) {
                    errs.add(FieldError.required(path + ".container", "must specify a container"));
                }
                errs.addAll(target(target, path + ".target"));
                boolean utilization = target.hasNonNull("averageUtilization");
                boolean average = target.hasNonNull("averageValue");
                if (!utilization && !average) {
                    errs.add(FieldError.required(path + ".target.averageUtilization",
                            "must set either a target raw value or a target utilization"));
                }
                if (utilization && average) {
                    errs.add(FieldError.forbidden(path + ".target.averageValue",
                            "may not set both a target raw value and a target utilization"));
                }
            }
            case "pods" -> {
                errs.addAll(metricIdentifier(s.path("metric"), path + ".metric"));
                errs.addAll(target(target, path + ".target"));
                if (!target.hasNonNull("averageValue")) {
                    errs.add(FieldError.required(path + ".target.averageValue", "must specify a positive target averageValue"));
                }
            }
            case "object" -> {
                errs.addAll(crossVersionObjectReference(s.path("describedObject"), path + ".describedObject"));
                errs.addAll(metricIdentifier(s.path("metric"), path + ".metric"));
                errs.addAll(target(target, path + ".target"));
                if (!target.hasNonNull("value") && !target.hasNonNull("averageValue")) {
                    errs.add(FieldError.required(path + ".target.averageValue",
                            "must set either a target value or averageValue"));
                }
            }
            default -> {
                errs.addAll(metricIdentifier(s.path("metric"), path + ".metric"));
                errs.addAll(target(target, path + ".target"));
                boolean value = target.hasNonNull("value");
                boolean average = target.hasNonNull("averageValue");
                if (!value && !average) {
                    errs.add(FieldError.required(path + ".target.averageValue",
                            "must set either a target value for metric or a per-pod target"));
                }
                if (value && average) {
                    errs.add(FieldError.forbidden(path + ".target.value",
                            "may not set both a target value for metric and a per-pod target"));
                }
            }
        }
        return errs;
    }

    private static List<FieldError> metricIdentifier(JsonNode id, String path) {
        List<FieldError> errs = new ArrayList<>();
        String name = id.path("name").asText("");
        if (name.isEmpty()) {
            errs.add(FieldError.required(path + ".name", "must specify a metric name"));
        } else {
            NameValidators.isValidPathSegmentName(name).forEach(m -> errs.add(FieldError.invalid(path + ".name", name, m)));
        }
        return errs;
    }

    private static List<FieldError> target(JsonNode target, String path) {
        List<FieldError> errs = new ArrayList<>();
        String type = target.path("type").asText("");
        if (type.isEmpty()) {
            errs.add(FieldError.required(path + ".type", "must specify a metric target type"));
        }
        if (!List.of("Utilization", "Value", "AverageValue").contains(type)) {
            errs.add(FieldError.invalid(path + ".type", type, "must be either Utilization, Value, or AverageValue"));
        }
        for (String quantity : new String[] {"value", "averageValue"}) {
            JsonNode q = target.get(quantity);
            if (q != null && !q.isNull() && !isPositive(q)) {
                errs.add(FieldError.invalid(path + "." + quantity, q.asText(), "must be positive"));
            }
        }
        JsonNode utilization = target.get("averageUtilization");
        if (utilization != null && !utilization.isNull() && utilization.asLong() < 1) {
            errs.add(FieldError.invalid(path + ".averageUtilization", utilization.asLong(), "must be greater than 0"));
        }
        return errs;
    }

    /** True for a quantity above zero (one that is no quantity was refused when it was decoded). */
    private static boolean isPositive(JsonNode quantity) {
        try {
            return Quantity.parseJson(quantity.asText()).signum() > 0;
        } catch (InvalidQuantityException e) {
            return false;
        }
    }

    private static List<FieldError> scalingRules(JsonNode rules, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (rules == null || !rules.isObject()) {
            return errs;
        }
        JsonNode window = rules.get("stabilizationWindowSeconds");
        if (window != null && !window.isNull()) {
            if (window.asLong() < 0) {
                errs.add(FieldError.invalid(path + ".stabilizationWindowSeconds", window.asLong(),
                        "must be greater than or equal to zero"));
            }
            if (window.asLong() > MAX_STABILIZATION_WINDOW_SECONDS) {
                errs.add(FieldError.invalid(path + ".stabilizationWindowSeconds", window.asLong(),
                        "must be less than or equal to " + MAX_STABILIZATION_WINDOW_SECONDS));
            }
        }
        JsonNode select = rules.get("selectPolicy");
        if (select != null && !select.isNull() && !SELECT_POLICIES.contains(select.asText())) {
            errs.add(FieldError.notSupported(path + ".selectPolicy", select.asText(), SELECT_POLICIES));
        }
        JsonNode policies = rules.path("policies");
        if (policies.isEmpty()) {
            errs.add(FieldError.required(path + ".policies", "must specify at least one Policy"));
        }
        for (int i = 0; i < policies.size(); i++) {
            String p = path + ".policies[" + i + "]";
            JsonNode policy = policies.get(i);
            String type = policy.path("type").asText("");
            if (!POLICY_TYPES.contains(type)) {
                errs.add(FieldError.notSupported(p + ".type", type, POLICY_TYPES));
            }
            if (policy.path("value").asLong(0) <= 0) {
                errs.add(FieldError.invalid(p + ".value", policy.path("value").asLong(0), "must be greater than zero"));
            }
            long period = policy.path("periodSeconds").asLong(0);
            if (period <= 0) {
                errs.add(FieldError.invalid(p + ".periodSeconds", period, "must be greater than zero"));
            }
            if (period > MAX_PERIOD_SECONDS) {
                errs.add(FieldError.invalid(p + ".periodSeconds", period, "must be less than or equal to " + MAX_PERIOD_SECONDS));
            }
        }
        return errs;
    }
}
