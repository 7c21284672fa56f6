package io.kubelix.resource.core.replicationcontroller;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kube's ValidateReplicationController and ValidateReplicationControllerStatusUpdate: a non-empty
 * selector that matches the template's labels, non-negative replicas and minReadySeconds, a valid
 * pod template that restarts {@code Always} and has no activeDeadlineSeconds; a status whose counts
 * are non-negative and consistent.
 */
final class ReplicationControllerValidation {
    static final String SELECTOR_MISMATCH = "`selector` does not match template `labels`";

    private ReplicationControllerValidation() {
    }

    static List<FieldError> validate(JsonNode rc) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = rc.path("spec");
        errs.addAll(MetadataValidators.validateNonnegative(spec.path("minReadySeconds").asLong(0), "spec.minReadySeconds"));
        JsonNode selector = spec.get("selector");
        if (selector == null || !selector.isObject() || selector.isEmpty()) {
            errs.add(FieldError.required("spec.selector", ""));
        } else {
            errs.addAll(MetadataValidators.validateLabels(selector, "spec.selector"));
        }
        errs.addAll(MetadataValidators.validateNonnegative(spec.path("replicas").asLong(0), "spec.replicas"));
        JsonNode template = spec.get("template");
        if (template == null || template.isNull()) {
            errs.add(FieldError.required("spec.template", ""));
            return errs;
        }
        JsonNode labels = template.path("metadata").path("labels");
        if (selector != null && selector.isObject() && !selector.isEmpty() && !matches(selector, labels)) {
            errs.add(FieldError.invalid("spec.template.metadata.labels", GoSyntax.stringMap(template.path("metadata").get("labels")),
                    SELECTOR_MISMATCH));
        }
        errs.addAll(PodTemplateValidation.validatePodTemplateSpec(template, "spec.template"));
        String restartPolicy = Nodes.text(template.path("spec"), "restartPolicy");
        if (!restartPolicy.isEmpty() && !restartPolicy.equals("Always")) {
            errs.add(FieldError.notSupported("spec.template.spec.restartPolicy", restartPolicy, List.of("Always")));
        }
        JsonNode deadline = template.path("spec").get("activeDeadlineSeconds");
        if (deadline != null && !deadline.isNull()) {
            errs.add(FieldError.invalid("spec.template.spec.activeDeadlineSeconds", deadline.asLong(),
                    "activeDeadlineSeconds in ReplicationController is not Supported"));
        }
        return errs;
    }

    /** labels.SelectorFromSet(selector).Matches(labels): every selector pair is among the labels. */
    static boolean matches(JsonNode selector, JsonNode labels) {
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!labels.path(e.getKey()).isTextual() || !labels.get(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        return true;
    }

    /** ValidateReplicationControllerStatus. */
    static List<FieldError> validateStatus(JsonNode status) {
        List<FieldError> errs = new ArrayList<>();
        long replicas = status.path("replicas").asLong(0);
        long fullyLabeled = status.path("fullyLabeledReplicas").asLong(0);
        long ready = status.path("readyReplicas").asLong(0);
        long available = status.path("availableReplicas").asLong(0);
        errs.addAll(MetadataValidators.validateNonnegative(replicas, "status.replicas"));
        errs.addAll(MetadataValidators.validateNonnegative(fullyLabeled, "status.fullyLabeledReplicas"));
        errs.addAll(MetadataValidators.validateNonnegative(ready, "status.readyReplicas"));
        errs.addAll(MetadataValidators.validateNonnegative(available, "status.availableReplicas"));
        errs.addAll(MetadataValidators.validateNonnegative(status.path("observedGeneration").asLong(0), "status.observedGeneration"));
        if (fullyLabeled > replicas) {
            errs.add(FieldError.invalid("status.fullyLabeledReplicas", fullyLabeled, "cannot be greater than status.replicas"));
        }
        if (ready > replicas) {
            errs.add(FieldError.invalid("status.readyReplicas", ready, "cannot be greater than status.replicas"));
        }
        if (available > replicas) {
            errs.add(FieldError.invalid("status.availableReplicas", available, "cannot be greater than status.replicas"));
        }
        if (available > ready) {
            errs.add(FieldError.invalid("status.availableReplicas", available, "cannot be greater than readyReplicas"));
        }
        return errs;
    }
}
