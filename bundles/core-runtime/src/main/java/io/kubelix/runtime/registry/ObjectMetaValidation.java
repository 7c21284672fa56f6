package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.validation.NameValidators;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * ValidateObjectMeta and ValidateObjectMetaUpdate: the metadata rules every resource shares
 * (name, namespace, labels, annotations, immutable fields), with kube-apiserver's field paths.
 */
final class ObjectMetaValidation {
    private static final long TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
    /** metav1.FinalizerOrphanDependents. */
    static final String FINALIZER_ORPHAN = "orphan";
    /** metav1.FinalizerDeleteDependents. */
    static final String FINALIZER_FOREGROUND = "foregroundDeletion";

    private ObjectMetaValidation() {
    }

    static List<FieldError> validate(ObjectNode meta, NameValidation nameValidation, boolean namespaced) {
        List<FieldError> errs = new ArrayList<>();
        String name = text(meta, "name");
        String generateName = text(meta, "generateName");
        if (name == null || name.isEmpty()) {
            if (generateName == null || generateName.isEmpty()) {
                errs.add(FieldError.required("metadata.name", "name or generateName is required"));
            }
        } else {
            for (String msg : validateName(name, nameValidation)) {
                errs.add(FieldError.invalid("metadata.name", name, msg));
            }
        }
        if (generateName != null && !generateName.isEmpty()) {
            // A generated name only appends characters, so its prefix must be valid once trimmed of a trailing '-'.
            String prefix = generateName.endsWith("-") ? generateName.substring(0, generateName.length() - 1) : generateName;
            for (String msg : validateName(prefix.isEmpty() ? "a" : prefix, nameValidation)) {
                errs.add(FieldError.invalid("metadata.generateName", generateName, msg));
            }
        }
        String namespace = text(meta, "namespace");
        if (namespaced) {
            if (namespace == null || namespace.isEmpty()) {
                errs.add(FieldError.required("metadata.namespace", ""));
            } else {
                for (String msg : NameValidators.isDNS1123Label(namespace)) {
                    errs.add(FieldError.invalid("metadata.namespace", namespace, msg));
                }
            }
        } else if (namespace != null && !namespace.isEmpty()) {
            errs.add(FieldError.forbidden("metadata.namespace", "not allowed on this type"));
        }
        errs.addAll(validateLabels(meta.get("labels")));
        errs.addAll(validateAnnotations(meta.get("annotations")));
        errs.addAll(validateFinalizers(meta.get("finalizers")));
        errs.addAll(validateOwnerReferences(meta.get("ownerReferences")));
        return errs;
    }

    static List<FieldError> validateUpdate(ObjectNode meta, ObjectNode oldMeta, NameValidation nameValidation,
                                           boolean namespaced) {
        List<FieldError> errs = validate(meta, nameValidation, namespaced);
        // ValidateObjectMetaAccessorUpdate: finalizers cannot be added once deletion has begun.
        if (text(oldMeta, "deletionTimestamp") != null) {
            Set<String> added = new TreeSet<>(strings(meta.get("finalizers")));
            added.removeAll(strings(oldMeta.get("finalizers")));
            if (!added.isEmpty()) {
                errs.add(FieldError.forbidden("metadata.finalizers", "no new finalizers can be added if the object is "
                        + "being deleted, found new finalizers " + goStrings(added)));
            }
        }
        for (String field : new String[] {"name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
                "deletionGracePeriodSeconds"}) {
            if (!Objects.equals(text(meta, field), text(oldMeta, field))) {
                errs.add(FieldError.invalid("metadata." + field, text(meta, field), "field is immutable"));
            }
        }
        return errs;
    }

    /** ValidateFinalizers: qualified names, and never both orphan and foregroundDeletion. */
    private static List<FieldError> validateFinalizers(JsonNode finalizers) {
        List<FieldError> errs = new ArrayList<>();
        if (finalizers == null || finalizers.isNull()) {
            return errs;
        }
        if (!finalizers.isArray()) {
            errs.add(FieldError.invalid("metadata.finalizers", finalizers.toString(), "must be a list of strings"));
            return errs;
        }
        for (JsonNode f : finalizers) {
            if (!f.isTextual()) {
                errs.add(FieldError.invalid("metadata.finalizers", f.toString(), "finalizers must be strings"));
                continue;
            }
            for (String msg : NameValidators.isQualifiedName(f.asText())) {
                errs.add(FieldError.invalid("metadata.finalizers", f.asText(), msg));
            }
        }
        List<String> names = strings(finalizers);
        if (names.contains(FINALIZER_ORPHAN) && names.contains(FINALIZER_FOREGROUND)) {
            errs.add(FieldError.invalid("metadata.finalizers", new GoSyntax(goStrings(names)), "finalizer " + FINALIZER_ORPHAN
                    + " and " + FINALIZER_FOREGROUND + " cannot be both set"));
        }
        return errs;
    }

    /**
     * ValidateOwnerReferences: each reference names the owner's apiVersion (with a version), kind,
     * name and uid; an Event cannot own anything; at most one reference is the controller. As kube
     * does, the field paths carry no index.
     */
    private static List<FieldError> validateOwnerReferences(JsonNode refs) {
        List<FieldError> errs = new ArrayList<>();
        if (refs == null || refs.isNull()) {
            return errs;
        }
        String path = "metadata.ownerReferences";
        if (!refs.isArray()) {
            errs.add(FieldError.invalid(path, refs.toString(), "must be a list of owner references"));
            return errs;
        }
        String firstController = null;
        for (JsonNode ref : refs) {
            if (!ref.isObject()) {
                errs.add(FieldError.invalid(path, ref.toString(), "must be an owner reference"));
                continue;
            }
            String apiVersion = ref.path("apiVersion").asText("");
            String kind = ref.path("kind").asText("");
            String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
            if (version.isEmpty()) {
                errs.add(FieldError.invalid(path + ".apiVersion", apiVersion, "version must not be empty"));
            }
            if (kind.isEmpty()) {
                errs.add(FieldError.invalid(path + ".kind", kind, "kind must not be empty"));
            }
            if (ref.path("name").asText("").isEmpty()) {
                errs.add(FieldError.invalid(path + ".name", ref.path("name").asText(""), "name must not be empty"));
            }
            if (ref.path("uid").asText("").isEmpty()) {
                errs.add(FieldError.invalid(path + ".uid", ref.path("uid").asText(""), "uid must not be empty"));
            }
            if (apiVersion.equals("v1") && kind.equals("Event")) {
                errs.add(FieldError.invalid(path, new GoSyntax(goOwnerReference(ref)),
                        "/v1, Kind=Event is disallowed from being an owner"));
            }
            if (ref.path("controller").asBoolean(false)) {
                String controller = kind + "/" + ref.path("name").asText("");
                if (firstController != null) {
                    errs.add(FieldError.invalid(path, new GoSyntax(goOwnerReferences(refs)),
                            "Only one reference can have Controller set to true. Found \"true\" in references for "
                                    + firstController + " and " + controller));
                } else {
                    firstController = controller;
                }
            }
        }
        return errs;
    }

    /** An owner reference as Go's %#v prints the struct (pointer fields by value, as their address says nothing). */
    private static String goOwnerReference(JsonNode ref) {
        return "v1.OwnerReference{APIVersion:\"" + ref.path("apiVersion").asText("") + "\", Kind:\""
                + ref.path("kind").asText("") + "\", Name:\"" + ref.path("name").asText("") + "\", UID:\""
                + ref.path("uid").asText("") + "\", Controller:" + goBool(ref.get("controller"))
                + ", BlockOwnerDeletion:" + goBool(ref.get("blockOwnerDeletion")) + "}";
    }

    private static String goOwnerReferences(JsonNode refs) {
        List<String> each = new ArrayList<>();
        refs.forEach(r -> each.add(goOwnerReference(r).substring("v1.OwnerReference".length())));
        return "[]v1.OwnerReference{" + String.join(", ", each) + "}";
    }

    private static String goBool(JsonNode b) {
        return b == null || b.isNull() ? "(*bool)(nil)" : "(*bool)(" + b.asBoolean() + ")";
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(e -> {
                if (e.isTextual()) {
                    out.add(e.asText());
                }
            });
        }
        return out;
    }

    /** A value already in Go syntax, which FieldError prints as it is rather than quoted. */
    private record GoSyntax(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A string list as Go's %#v prints it, which kube's messages use: {@code []string{"a", "b"}}. */
    private static String goStrings(java.util.Collection<String> values) {
        return values.stream().map(v -> "\"" + v + "\"").collect(java.util.stream.Collectors.joining(", ", "[]string{", "}"));
    }

    static List<String> validateName(String name, NameValidation v) {
        return switch (v) {
            case DNS1123_LABEL -> NameValidators.isDNS1123Label(name);
            case DNS1123_SUBDOMAIN -> NameValidators.isDNS1123Subdomain(name);
            case PATH_SEGMENT -> NameValidators.isValidPathSegmentName(name);
        };
    }

    private static List<FieldError> validateLabels(JsonNode labels) {
        List<FieldError> errs = new ArrayList<>();
        if (labels == null || labels.isNull()) {
            return errs;
        }
        if (!labels.isObject()) {
            errs.add(FieldError.invalid("metadata.labels", labels.toString(), "must be a map of strings"));
            return errs;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            for (String msg : NameValidators.isQualifiedName(e.getKey())) {
                errs.add(FieldError.invalid("metadata.labels", e.getKey(), msg));
            }
            if (!e.getValue().isTextual()) {
                errs.add(FieldError.invalid("metadata.labels", e.getValue().toString(), "label values must be strings"));
                continue;
            }
            for (String msg : NameValidators.isValidLabelValue(e.getValue().asText())) {
                errs.add(FieldError.invalid("metadata.labels", e.getValue().asText(), msg));
            }
        }
        return errs;
    }

    private static List<FieldError> validateAnnotations(JsonNode annotations) {
        List<FieldError> errs = new ArrayList<>();
        if (annotations == null || annotations.isNull()) {
            return errs;
        }
        if (!annotations.isObject()) {
            errs.add(FieldError.invalid("metadata.annotations", annotations.toString(), "must be a map of strings"));
            return errs;
        }
        long total = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = annotations.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            for (String msg : NameValidators.isQualifiedName(e.getKey().toLowerCase(java.util.Locale.ROOT))) {
                errs.add(FieldError.invalid("metadata.annotations", e.getKey(), msg));
            }
            if (!e.getValue().isTextual()) {
                errs.add(FieldError.invalid("metadata.annotations", e.getValue().toString(),
                        "annotation values must be strings"));
                continue;
            }
            total += e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + e.getValue().asText().getBytes(StandardCharsets.UTF_8).length;
        }
        if (total > TOTAL_ANNOTATION_SIZE_LIMIT) {
            errs.add(new FieldError(FieldError.Type.TOO_LONG, "metadata.annotations", "",
                    "may not be more than " + TOTAL_ANNOTATION_SIZE_LIMIT + " bytes"));
        }
        return errs;
    }

    static String text(ObjectNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
