package io.kubelix.api.core.v1;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's ValidateTolerations (pkg/apis/core/validation), which pods and node.k8s.io RuntimeClasses'
 * scheduling both run, with kube's field paths and words.
 */
public final class TolerationValidation {
    /** The taint effects a toleration may name. */
    public static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    private TolerationValidation() {
    }

    /**
     * ValidateTolerations: a key, when given, is a label name (an empty key means every key and needs
     * {@code Exists}); Equal compares a label value, Exists takes none; tolerationSeconds only with
     * NoExecute; an effect, when given, is a taint effect.
     *
     * @param tolerations the list, or a missing node
     * @param path        its field path, such as {@code spec.tolerations}
     */
    public static List<FieldError> validateTolerations(JsonNode tolerations, String path) {
        List<FieldError> errs = new ArrayList<>();
        int i = 0;
        for (JsonNode t : tolerations) {
            String p = path + "[" + i++ + "]";
            String key = text(t, "key");
            String operator = text(t, "operator");
            String effect = text(t, "effect");
            String value = text(t, "value");
            if (!key.isEmpty()) {
                NameValidators.isQualifiedName(key).forEach(m -> errs.add(FieldError.invalid(p + ".key", key, m)));
            } else if (!operator.equals("Exists")) {
                errs.add(FieldError.invalid(p + ".operator", operator,
                        "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
            }
            JsonNode seconds = t.get("tolerationSeconds");
            if (seconds != null && !seconds.isNull() && !effect.equals("NoExecute")) {
                errs.add(FieldError.invalid(p + ".effect", effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
            }
            switch (operator) {
                case "", "Equal" -> {
                    List<String> valueErrs = NameValidators.isValidLabelValue(value);
                    if (!valueErrs.isEmpty()) {
                        errs.add(FieldError.invalid(p + ".operator", value, String.join(";", valueErrs)));
                    }
                }
                case "Exists" -> {
                    if (!value.isEmpty()) {
                        errs.add(FieldError.invalid(p + ".operator", t.toString(), "value must be empty when `operator` is 'Exists'"));
                    }
                }
                default -> errs.add(FieldError.notSupported(p + ".operator", operator, List.of("Equal", "Exists")));
            }
            if (!effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                errs.add(FieldError.notSupported(p + ".effect", effect, TAINT_EFFECTS));
            }
        }
        return errs;
    }

    private static String text(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }
}
