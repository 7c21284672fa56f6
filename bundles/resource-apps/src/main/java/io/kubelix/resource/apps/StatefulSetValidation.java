package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's ValidateStatefulSetSpec and ValidateStatefulSetUpdate. As in kube, a statefulset's pod
 * spec is not validated beyond its labels, annotations, restart policy and active deadline (kube
 * leaves a TODO there), and an update may change only replicas, ordinals, template,
 * updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds.
 */
final class StatefulSetValidation {
    static final String FORBIDDEN_UPDATE = "updates to statefulset spec for fields other than 'replicas', 'ordinals', "
            + "'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
    private static final String[] MUTABLE = {"replicas", "ordinals", "template", "updateStrategy",
            "persistentVolumeClaimRetentionPolicy", "minReadySeconds"};

    private StatefulSetValidation() {
    }

    static List<FieldError> validate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        String policy = spec.path("podManagementPolicy").asText("");
        if (policy.isEmpty()) {
            errs.add(FieldError.required("spec.podManagementPolicy", ""));
        } else if (!policy.equals(AppsDefaults.ORDERED_READY) && !policy.equals(AppsDefaults.PARALLEL)) {
            errs.add(FieldError.invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
        }
        errs.addAll(updateStrategy(spec.path("updateStrategy")));
        JsonNode retention = spec.get("persistentVolumeClaimRetentionPolicy");
        if (retention != null && !retention.isNull()) {
            for (String f : new String[] {"whenDeleted", "whenScaled"}) {
                String v = retention.path(f).asText("");
                if (!v.equals(AppsDefaults.RETAIN) && !v.equals(AppsDefaults.DELETE)) {
                    errs.add(FieldError.notSupported("spec.persistentVolumeClaimRetentionPolicy." + f, v,
                            List.of(AppsDefaults.RETAIN, AppsDefaults.DELETE)));
                }
            }
        }
        errs.addAll(WorkloadValidation.nonnegative(spec, "replicas", "spec"));
        errs.addAll(WorkloadValidation.nonnegative(spec, "minReadySeconds", "spec"));
        if (spec.path("ordinals").hasNonNull("start")) {
            // kube's path is "ordinals.start" as one child name, which prints the same.
            errs.addAll(MetadataValidators.validateNonnegative(spec.path("ordinals").path("start").asLong(), "spec.ordinals.start"));
        }
        JsonNode selector = spec.get("selector");
        errs.addAll(WorkloadValidation.selector(selector, "statefulset"));
        JsonNode template = spec.path("template");
        if (!WorkloadValidation.parses(selector)) {
            errs.add(FieldError.invalid("spec.selector", GoSyntax.labelSelector(selector), ""));
        } else {
            // ValidatePodTemplateSpecForStatefulSet
            if (!LabelSelectors.isEmpty(selector) && !LabelSelectors.matches(selector, template.path("metadata").get("labels"))) {
                errs.add(WorkloadValidation.mismatch(template, "spec.template"));
            }
            errs.addAll(MetadataValidators.validateLabels(template.path("metadata").get("labels"), "spec.template.labels"));
            errs.addAll(MetadataValidators.validateAnnotations(template.path("metadata").get("annotations"),
                    "spec.template.annotations"));
        }
        errs.addAll(WorkloadValidation.alwaysRestartNoDeadline(template.path("spec"), "spec.template.spec", "StatefulSet"));
        return errs;
    }

    /** ValidateStatefulSetUpdate: the new spec is valid, and only the mutable fields changed. */
    static List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = validate(obj);
        ObjectNode spec = obj.path("spec") instanceof ObjectNode s ? s.deepCopy() : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        JsonNode oldSpec = old.path("spec");
        for (String f : MUTABLE) {
            spec.remove(f);
            if (oldSpec.has(f)) {
                spec.set(f, oldSpec.get(f).deepCopy());
            }
        }
        if (!spec.equals(oldSpec)) {
            errs.add(FieldError.forbidden("spec", FORBIDDEN_UPDATE));
        }
        return errs;
    }

    private static List<FieldError> updateStrategy(JsonNode strategy) {
        List<FieldError> errs = new ArrayList<>();
        String type = strategy.path("type").asText("");
        JsonNode rolling = strategy.get("rollingUpdate");
        boolean hasRolling = rolling != null && !rolling.isNull();
        switch (type) {
            case "" -> errs.add(FieldError.required("spec.updateStrategy", ""));
            case AppsDefaults.ON_DELETE -> {
                if (hasRolling) {
                    errs.add(FieldError.invalid("spec.updateStrategy.rollingUpdate", new GoSyntax("&apps.RollingUpdateStatefulSetStrategy{"
                            + "Partition:" + rolling.path("partition").asLong(0) + ", MaxUnavailable:(*intstr.IntOrString)(nil)}"),
                            "only allowed for updateStrategy 'RollingUpdate'"));
                }
            }
            case AppsDefaults.ROLLING_UPDATE -> {
                if (hasRolling) {
                    String p = "spec.updateStrategy.rollingUpdate";
                    errs.addAll(WorkloadValidation.nonnegative(rolling, "partition", p));
                    JsonNode max = rolling.get("maxUnavailable");
                    if (max != null && !max.isNull()) {
                        errs.addAll(IntOrPercent.validatePositive(max, p + ".maxUnavailable"));
                        if (IntOrPercent.value(max) == 0) {
                            errs.add(FieldError.invalid(p + ".maxUnavailable", IntOrPercent.go(max), "cannot be 0"));
                        }
                        errs.addAll(IntOrPercent.notMoreThan100Percent(max, p + ".maxUnavailable"));
                    }
                }
            }
            default -> errs.add(FieldError.invalid("spec.updateStrategy", WorkloadValidation.strategyStruct(
                    "apps.StatefulSetUpdateStrategy", type, hasRolling, "apps.RollingUpdateStatefulSetStrategy"),
                    "must be 'RollingUpdate' or 'OnDelete'"));
        }
        return errs;
    }
}
