package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.core.v1.TolerationValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kube's pod validation (pkg/apis/core/validation ValidatePodCreate, ValidatePodUpdate,
 * ValidatePodBinding) for what users meet: the pod spec rules shared with templates
 * ({@link PodTemplateValidation}), then what only pods check (activeDeadlineSeconds, nodeName, host
 * ports under hostNetwork, no ephemeral containers on create), and on update kube's immutability of
 * the spec with its list of the fields a pod update may change.
 */
final class PodValidation {
    /** kube's updatablePodSpecFieldsNoResources, joined as kube joins them in its Forbidden message. */
    static final String UPDATABLE_FIELDS = String.join(",", List.of("`spec.containers[*].image`",
            "`spec.initContainers[*].image`", "`spec.activeDeadlineSeconds`",
            "`spec.tolerations` (only additions to existing tolerations)",
            "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"));
    static final String MAX_INT32_RANGE = "must be between 1 and 2147483647, inclusive";
    private static final long MAX_INT32 = Integer.MAX_VALUE;

    private PodValidation() {
    }

    /** ValidatePodCreate: the spec, and no ephemeral containers. */
    static List<FieldError> validateCreate(ObjectNode pod) {
        List<FieldError> errs = validateSpec(pod.path("spec"));
        if (!pod.path("spec").path("ephemeralContainers").isEmpty()) {
            errs.add(FieldError.forbidden("spec.ephemeralContainers", "cannot be set on create"));
        }
        return errs;
    }

    /** validatePodMetadataAndSpec's spec half. */
    static List<FieldError> validateSpec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>(PodTemplateValidation.validatePodSpec(spec, "spec"));
        JsonNode deadline = spec.get("activeDeadlineSeconds");
        if (deadline != null && !deadline.isNull() && (deadline.asLong() < 1 || deadline.asLong() > MAX_INT32)) {
            errs.add(FieldError.invalid("spec.activeDeadlineSeconds", deadline.asLong(), MAX_INT32_RANGE));
        }
        String nodeName = Nodes.text(spec, "nodeName");
        if (!nodeName.isEmpty()) {
            NameValidators.isDNS1123Subdomain(nodeName).forEach(m -> errs.add(FieldError.invalid("spec.nodeName", nodeName, m)));
        }
        errs.addAll(validateTolerations(spec.path("tolerations")));
        errs.addAll(validateSchedulingGates(spec.path("schedulingGates")));
        if (Nodes.isTrue(spec, "hostNetwork")) {
            for (String list : new String[] {"initContainers", "containers"}) {
                int i = 0;
                for (JsonNode c : spec.path(list)) {
                    int j = 0;
                    for (JsonNode p : c.path("ports")) {
                        long host = p.path("hostPort").asLong(0);
                        if (host != 0 && host != p.path("containerPort").asLong(0)) {
                            errs.add(FieldError.invalid("spec." + list + "[" + i + "].ports[" + j + "].hostPort", host,
                                    "must match `containerPort` when `hostNetwork` is true"));
                        }
                        j++;
                    }
                    i++;
                }
            }
        }
        return errs;
    }

    /**
     * ValidatePodUpdate: the new spec is valid, containers are neither added nor removed, and nothing
     * but images, activeDeadlineSeconds (set, or lowered), added tolerations, removed scheduling gates
     * and a negative terminationGracePeriodSeconds set to 1 changes.
     */
    static List<FieldError> validateUpdate(ObjectNode pod, ObjectNode old) {
        List<FieldError> errs = validateSpec(pod.path("spec"));
        JsonNode spec = pod.path("spec");
        JsonNode oldSpec = old.path("spec");
        for (String list : new String[] {"containers", "initContainers"}) {
            if (spec.path(list).size() != oldSpec.path(list).size()) {
                errs.add(FieldError.forbidden("spec." + list, "pod updates may not add or remove containers"));
                return errs;
            }
        }
        JsonNode deadline = spec.get("activeDeadlineSeconds");
        JsonNode oldDeadline = oldSpec.get("activeDeadlineSeconds");
        if (deadline != null && !deadline.isNull()) {
            if (oldDeadline != null && !oldDeadline.isNull() && oldDeadline.asLong() < deadline.asLong()) {
                errs.add(FieldError.invalid("spec.activeDeadlineSeconds", deadline.asLong(),
                        "must be less than or equal to previous value"));
                return errs;
            }
        } else if (oldDeadline != null && !oldDeadline.isNull()) {
            errs.add(FieldError.invalid("spec.activeDeadlineSeconds", null, "must not update from a positive integer to nil value"));
        }
        errs.addAll(onlyAddedTolerations(spec.path("tolerations"), oldSpec.path("tolerations")));
        errs.addAll(onlyDeletedSchedulingGates(spec.path("schedulingGates"), oldSpec.path("schedulingGates")));
        if (!semantic(mungedSpec(spec, oldSpec)).equals(semantic(oldSpec))) {
            errs.add(FieldError.forbidden("spec", "pod updates may not change fields other than " + UPDATABLE_FIELDS));
        }
        return errs;
    }

    /** The new spec with the fields a pod update may change set back to their old values. */
    private static ObjectNode mungedSpec(JsonNode spec, JsonNode oldSpec) {
        ObjectNode munged = spec.isObject() ? (ObjectNode) spec.deepCopy() : JsonNodeFactory.instance.objectNode();
        for (String list : new String[] {"containers", "initContainers"}) {
            JsonNode containers = munged.get(list);
            for (int i = 0; containers != null && i < containers.size(); i++) {
                if (containers.get(i) instanceof ObjectNode c) {
                    JsonNode oldImage = oldSpec.path(list).path(i).get("image");
                    if (oldImage == null) {
                        c.remove("image");
                    } else {
                        c.set("image", oldImage);
                    }
                }
            }
        }
        for (String field : new String[] {"activeDeadlineSeconds", "schedulingGates", "tolerations"}) {
            restore(munged, oldSpec, field);
        }
        JsonNode oldGrace = oldSpec.get("terminationGracePeriodSeconds");
        if (oldGrace != null && oldGrace.asLong(0) < 0 && munged.path("terminationGracePeriodSeconds").asLong(0) == 1) {
            munged.set("terminationGracePeriodSeconds", oldGrace);
        }
        return munged;
    }

    private static void restore(ObjectNode munged, JsonNode oldSpec, String field) {
        JsonNode old = oldSpec.get(field);
        if (old == null) {
            munged.remove(field);
        } else {
            munged.set(field, old.deepCopy());
        }
    }

    /**
     * The spec as Semantic.DeepEqual compares it: JSON nulls, empty lists and empty objects are the
     * same as absent fields (nil and empty slices and maps are equal, and so are a zero struct and
     * its absence in JSON).
     */
    static JsonNode semantic(JsonNode node) {
        if (node instanceof ObjectNode o) {
            ObjectNode out = o.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (v.isNull() || v.isContainerNode() && v.isEmpty()) {
                    continue;
                }
                out.set(e.getKey(), semantic(v));
            }
            return out;
        }
        if (node instanceof ArrayNode a) {
            ArrayNode out = a.arrayNode();
            a.forEach(v -> out.add(semantic(v)));
            return out;
        }
        return node;
    }

    /** validateOnlyAddedTolerations: every old toleration is still there, with at most its tolerationSeconds changed. */
    private static List<FieldError> onlyAddedTolerations(JsonNode tolerations, JsonNode old) {
        for (JsonNode o : old) {
            boolean found = false;
            for (JsonNode t : tolerations) {
                ObjectNode clone = o.isObject() ? (ObjectNode) o.deepCopy() : null;
                if (clone == null) {
                    break;
                }
                restore(clone, t, "tolerationSeconds");
                if (semantic(clone).equals(semantic(t))) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return List.of(FieldError.forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds"));
            }
        }
        return List.of();
    }

    /** validateOnlyDeletedSchedulingGates: gates may be removed, never added. */
    private static List<FieldError> onlyDeletedSchedulingGates(JsonNode gates, JsonNode old) {
        List<String> oldNames = new ArrayList<>();
        old.forEach(g -> oldNames.add(Nodes.text(g, "name")));
        for (JsonNode g : gates) {
            if (!oldNames.contains(Nodes.text(g, "name"))) {
                return List.of(FieldError.forbidden("spec.schedulingGates", "only deletion is allowed, but found new scheduling gate '"
                        + Nodes.text(g, "name") + "'"));
            }
        }
        return List.of();
    }

    /** kube's ValidateTolerations of {@code spec.tolerations}. */
    static List<FieldError> validateTolerations(JsonNode tolerations) {
        return TolerationValidation.validateTolerations(tolerations, "spec.tolerations");
    }

    /** validateSchedulingGates: each gate is a qualified name, and appears once. */
    static List<FieldError> validateSchedulingGates(JsonNode gates) {
        List<FieldError> errs = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        int i = 0;
        for (JsonNode g : gates) {
            String p = "spec.schedulingGates[" + i++ + "]";
            String name = Nodes.text(g, "name");
            NameValidators.isQualifiedName(name).forEach(m -> errs.add(FieldError.invalid(p, name, m)));
            if (!seen.add(name)) {
                errs.add(FieldError.duplicate(p, name));
            }
        }
        return errs;
    }

    /** ValidatePodBinding: the target is a Node (or of no kind) and is named. */
    static List<FieldError> validateBinding(JsonNode binding) {
        List<FieldError> errs = new ArrayList<>();
        String kind = Nodes.text(binding.path("target"), "kind");
        if (!kind.isEmpty() && !kind.equals("Node")) {
            errs.add(FieldError.notSupported("target.kind", kind, List.of("Node", "<empty>")));
        }
        if (Nodes.text(binding.path("target"), "name").isEmpty()) {
            errs.add(FieldError.required("target.name", ""));
        }
        return errs;
    }
}
