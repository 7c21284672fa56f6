package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's apps validation (pkg/apis/apps/validation) of deployments, replicasets and daemonsets,
 * and the selector rules all four workloads share, with kube's field paths and words. Objects
 * are validated after defaulting, as kube does.
 */
final class WorkloadValidation {
    static final String SELECTOR_MISMATCH = "`selector` does not match template `labels`";
    static final String IMMUTABLE = "field is immutable";

    private WorkloadValidation() {
    }

    /** ValidateDeploymentSpec. */
    static List<FieldError> deployment(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>(nonnegative(spec, "replicas", "spec"));
        errs.addAll(selectorAndReplicaSetTemplate(spec, "deployment", "ReplicaSet"));
        errs.addAll(deploymentStrategy(spec.path("strategy"), "spec.strategy"));
        errs.addAll(nonnegative(spec, "minReadySeconds", "spec"));
        errs.addAll(nonnegative(spec, "revisionHistoryLimit", "spec"));
        JsonNode deadline = spec.get("progressDeadlineSeconds");
        if (deadline != null && !deadline.isNull()) {
            errs.addAll(nonnegative(spec, "progressDeadlineSeconds", "spec"));
            if (deadline.asLong() <= spec.path("minReadySeconds").asLong(0)) {
                errs.add(FieldError.invalid("spec.progressDeadlineSeconds", deadline.asLong(),
                        "must be greater than minReadySeconds"));
            }
        }
        return errs;
    }

    /** ValidateReplicaSetSpec. */
    static List<FieldError> replicaSet(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>(nonnegative(spec, "replicas", "spec"));
        errs.addAll(nonnegative(spec, "minReadySeconds", "spec"));
        // kube words the empty-selector error of a replicaset as a deployment's.
        errs.addAll(selectorAndReplicaSetTemplate(spec, "deployment", "ReplicaSet"));
        return errs;
    }

    /** ValidateDaemonSetSpec. */
    static List<FieldError> daemonSet(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        JsonNode selector = spec.get("selector");
        List<FieldError> errs = new ArrayList<>(MetadataValidators.validateLabelSelector(selector, "spec.selector"));
        JsonNode template = spec.path("template");
        if (parses(selector) && !LabelSelectors.matches(selector, template.path("metadata").get("labels"))) {
            errs.add(mismatch(template, "spec.template"));
        }
        if (selector != null && !selector.isNull() && LabelSelectors.isEmpty(selector)) {
            errs.add(FieldError.invalid("spec.selector", GoSyntax.labelSelector(selector), "empty selector is invalid for daemonset"));
        }
        errs.addAll(PodTemplateValidation.validatePodTemplateSpec(template, "spec.template"));
        errs.addAll(alwaysRestartNoDeadline(template.path("spec"), "spec.template.spec", "DaemonSet"));
        errs.addAll(nonnegative(spec, "minReadySeconds", "spec"));
        errs.addAll(daemonSetUpdateStrategy(spec.path("updateStrategy"), "spec.updateStrategy"));
        errs.addAll(nonnegative(spec, "revisionHistoryLimit", "spec"));
        return errs;
    }

    /**
     * The selector of a deployment or replicaset (required, valid, not empty) and
     * ValidatePodTemplateSpecForReplicaSet: the template's labels must match it, the template must
     * be valid, restart always and have no active deadline.
     */
    private static List<FieldError> selectorAndReplicaSetTemplate(JsonNode spec, String emptyWord, String deadlineKind) {
        List<FieldError> errs = new ArrayList<>(selector(spec.get("selector"), emptyWord));
        JsonNode selector = spec.get("selector");
        if (!parses(selector)) {
            errs.add(FieldError.invalid("spec.selector", GoSyntax.labelSelector(selector), "invalid label selector"));
            return errs;
        }
        JsonNode template = spec.path("template");
        if (!LabelSelectors.isEmpty(selector) && !LabelSelectors.matches(selector, template.path("metadata").get("labels"))) {
            errs.add(mismatch(template, "spec.template"));
        }
        errs.addAll(PodTemplateValidation.validatePodTemplateSpec(template, "spec.template"));
        errs.addAll(alwaysRestartNoDeadline(template.path("spec"), "spec.template.spec", deadlineKind));
        return errs;
    }

    /** A selector that is required, valid and not empty; {@code emptyWord} names the kind in kube's message. */
    static List<FieldError> selector(JsonNode selector, String emptyWord) {
        List<FieldError> errs = new ArrayList<>();
        if (selector == null || selector.isNull()) {
            errs.add(FieldError.required("spec.selector", ""));
            return errs;
        }
        errs.addAll(MetadataValidators.validateLabelSelector(selector, "spec.selector"));
        if (LabelSelectors.isEmpty(selector)) {
            errs.add(FieldError.invalid("spec.selector", GoSyntax.labelSelector(selector),
                    "empty selector is invalid for " + emptyWord));
        }
        return errs;
    }

    /** Whether LabelSelectorAsSelector accepts the selector (a missing one selects nothing, which it accepts). */
    static boolean parses(JsonNode selector) {
        try {
            LabelSelectors.format(selector);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static FieldError mismatch(JsonNode template, String path) {
        return FieldError.invalid(path + ".metadata.labels", GoSyntax.stringMap(template.path("metadata").get("labels")),
                SELECTOR_MISMATCH);
    }

    /** Workload pods always restart and run without an active deadline. */
    static List<FieldError> alwaysRestartNoDeadline(JsonNode podSpec, String path, String kind) {
        List<FieldError> errs = new ArrayList<>();
        String restart = podSpec.path("restartPolicy").asText("");
        if (!restart.equals("Always")) {
            errs.add(FieldError.notSupported(path + ".restartPolicy", restart, List.of("Always")));
        }
        if (podSpec.hasNonNull("activeDeadlineSeconds")) {
            errs.add(FieldError.forbidden(path + ".activeDeadlineSeconds", "activeDeadlineSeconds in " + kind + " is not Supported"));
        }
        return errs;
    }

    /** ValidateDeploymentStrategy and ValidateRollingUpdateDeployment. */
    private static List<FieldError> deploymentStrategy(JsonNode strategy, String path) {
        List<FieldError> errs = new ArrayList<>();
        String type = strategy.path("type").asText("");
        JsonNode rolling = strategy.get("rollingUpdate");
        boolean hasRolling = rolling != null && !rolling.isNull();
        switch (type) {
            case AppsDefaults.RECREATE -> {
                if (hasRolling) {
                    errs.add(FieldError.forbidden(path + ".rollingUpdate",
                            "may not be specified when strategy `type` is 'Recreate'"));
                }
            }
            case AppsDefaults.ROLLING_UPDATE -> {
                if (!hasRolling) {
                    errs.add(FieldError.required(path + ".rollingUpdate", "this should be defaulted and never be nil"));
                    break;
                }
                String p = path + ".rollingUpdate";
                JsonNode unavailable = rolling.get("maxUnavailable");
                JsonNode surge = rolling.get("maxSurge");
                errs.addAll(bounds(unavailable, surge, p));
                if (IntOrPercent.value(unavailable) == 0 && IntOrPercent.value(surge) == 0) {
                    errs.add(FieldError.invalid(p + ".maxUnavailable", IntOrPercent.go(unavailable),
                            "may not be 0 when `maxSurge` is 0"));
                }
                errs.addAll(IntOrPercent.notMoreThan100Percent(unavailable, p + ".maxUnavailable"));
            }
            default -> errs.add(FieldError.notSupported(path, strategyStruct("apps.DeploymentStrategy", type, hasRolling,
                    "apps.RollingUpdateDeployment"), List.of(AppsDefaults.RECREATE, AppsDefaults.ROLLING_UPDATE)));
        }
        return errs;
    }

    /** ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet. */
    private static List<FieldError> daemonSetUpdateStrategy(JsonNode strategy, String path) {
        List<FieldError> errs = new ArrayList<>();
        String type = strategy.path("type").asText("");
        JsonNode rolling = strategy.get("rollingUpdate");
        switch (type) {
            case AppsDefaults.ON_DELETE -> { }
            case AppsDefaults.ROLLING_UPDATE -> {
                if (rolling == null || rolling.isNull()) {
                    errs.add(FieldError.required(path + ".rollingUpdate", ""));
                    break;
                }
                String p = path + ".rollingUpdate";
                JsonNode unavailable = rolling.get("maxUnavailable");
                JsonNode surge = rolling.get("maxSurge");
                errs.addAll(bounds(unavailable, surge, p));
                errs.addAll(IntOrPercent.notMoreThan100Percent(unavailable, p + ".maxUnavailable"));
                errs.addAll(IntOrPercent.notMoreThan100Percent(surge, p + ".maxSurge"));
                boolean hasUnavailable = IntOrPercent.value(unavailable) != 0;
                boolean hasSurge = IntOrPercent.value(surge) != 0;
                if (hasUnavailable && hasSurge) {
                    errs.add(FieldError.invalid(p + ".maxSurge", IntOrPercent.go(surge),
                            "may not be set when maxUnavailable is non-zero"));
                } else if (!hasUnavailable && !hasSurge) {
                    errs.add(FieldError.required(p + ".maxUnavailable", "cannot be 0 when maxSurge is 0"));
                }
            }
            default -> errs.add(FieldError.notSupported(path, strategyStruct("apps.DaemonSetUpdateStrategy", type,
                    rolling != null && !rolling.isNull(), "apps.RollingUpdateDaemonSet"),
                    List.of(AppsDefaults.ROLLING_UPDATE, AppsDefaults.ON_DELETE)));
        }
        return errs;
    }

    /** Both bounds of a rolling update are non-negative integers or valid percents. */
    private static List<FieldError> bounds(JsonNode unavailable, JsonNode surge, String path) {
        List<FieldError> errs = new ArrayList<>(IntOrPercent.validatePositive(unavailable, path + ".maxUnavailable"));
        errs.addAll(IntOrPercent.validatePositive(surge, path + ".maxSurge"));
        return errs;
    }

    /** A strategy struct as Go's %#v prints it in kube's NotSupported message (a pointer prints as an address there). */
    static GoSyntax strategyStruct(String type, String value, boolean hasRolling, String rollingType) {
        return new GoSyntax(type + "{Type:\"" + value + "\", RollingUpdate:(*" + rollingType + ")("
                + (hasRolling ? "0xc000000000" : "nil") + ")}");
    }

    /** The update rule of deployments, replicasets and daemonsets at apps/v1: spec.selector cannot change. */
    static List<FieldError> selectorUnchanged(ObjectNode obj, ObjectNode old) {
        JsonNode selector = obj.path("spec").get("selector");
        JsonNode oldSelector = old.path("spec").get("selector");
        if (!normalized(selector).equals(normalized(oldSelector))) {
            return List.of(FieldError.invalid("spec.selector", GoSyntax.labelSelector(selector), IMMUTABLE));
        }
        return List.of();
    }

    /** A selector compared as Semantic.DeepEqual does: empty and missing lists and maps are equal. */
    private static JsonNode normalized(JsonNode selector) {
        if (selector == null || selector.isNull()) {
            return com.fasterxml.jackson.databind.node.NullNode.instance;
        }
        if (!(selector instanceof ObjectNode object)) {
            return selector;
        }
        ObjectNode copy = object.deepCopy();
        for (String f : new String[] {"matchLabels", "matchExpressions"}) {
            if (copy.path(f).isEmpty()) {
                copy.remove(f);
            }
        }
        return copy;
    }

    /** ValidateNonnegativeField of {@code parent.field} when it is set. */
    static List<FieldError> nonnegative(JsonNode parent, String field, String path) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            return List.of();
        }
        return MetadataValidators.validateNonnegative(v.asLong(), path + "." + field);
    }
}
