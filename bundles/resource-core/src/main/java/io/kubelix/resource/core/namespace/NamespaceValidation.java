package io.kubelix.resource.core.namespace;

import io.kubelix.api.validation.NameValidators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * kube's ValidateNamespace: each {@code spec.finalizers} entry must be a qualified name, and an
 * unprefixed one must be a standard finalizer. The name (a DNS-1123 label) and the rest of the
 * metadata are the Store's to validate.
 */
final class NamespaceValidation {
    static final String FINALIZER_KUBERNETES = "kubernetes";
    /** core.FinalizerKubernetes, metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents. */
    static final Set<String> STANDARD_FINALIZERS = Set.of(FINALIZER_KUBERNETES, "orphan", "foregroundDeletion");

    private NamespaceValidation() {
    }

    static List<FieldError> validate(ObjectNode ns) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = ns.get("spec");
        if (spec == null || spec.isNull()) {
            return errs;
        }
        if (!spec.isObject()) {
            errs.add(FieldError.invalid("spec", null, "must be an object"));
            return errs;
        }
        JsonNode finalizers = spec.get("finalizers");
        if (finalizers == null || finalizers.isNull()) {
            return errs;
        }
        if (!finalizers.isArray()) {
            errs.add(FieldError.invalid("spec.finalizers", null, "must be a list of strings"));
            return errs;
        }
        // Kube reports every finalizer against the list itself, without an index.
        for (JsonNode f : finalizers) {
            if (!f.isTextual()) {
                errs.add(FieldError.invalid("spec.finalizers", null, "must be a list of strings"));
                continue;
            }
            String name = f.asText();
            NameValidators.isQualifiedName(name).forEach(msg -> errs.add(FieldError.invalid("spec.finalizers", name, msg)));
            if (!name.contains("/") && !STANDARD_FINALIZERS.contains(name)) {
                errs.add(FieldError.invalid("spec.finalizers", name,
                        "name is neither a standard finalizer name nor is it fully qualified"));
            }
        }
        return errs;
    }
}
