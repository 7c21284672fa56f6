package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * ValidateObjectMeta and ValidateObjectMetaUpdate: the metadata rules every resource shares
 * (name, namespace, labels, annotations, immutable fields), with kube-apiserver's field paths.
 */
final class ObjectMetaValidation {
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
        errs.addAll(MetadataValidators.validateLabels(meta.get("labels"), "metadata.labels"));
        errs.addAll(MetadataValidators.validateAnnotations(meta.get("annotations"), "metadata.annotations"));
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
                        + "being deleted, found new finalizers " + GoSyntax.strings(added)));
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
            errs.add(FieldError.invalid("metadata.finalizers", GoSyntax.strings(names), "finalizer " + FINALIZER_ORPHAN
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

    static List<String> validateName(String name, NameValidation v) {
        return switch (v) {
            case DNS1123_LABEL -> NameValidators.isDNS1123Label(name);
            case DNS1123_SUBDOMAIN -> NameValidators.isDNS1123Subdomain(name);
            case PATH_SEGMENT -> NameValidators.isValidPathSegmentName(name);
        };
    }

    static String text(ObjectNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
