package io.kubelix.api.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The metadata rules an object's {@code metadata} and the metadata embedded in it (a pod
 * template's) share, as apimachinery's ValidateLabels, ValidateAnnotations and
 * ValidateLabelSelector, with the field path given by the caller.
 */
public final class MetadataValidators {
    /** kube's TotalAnnotationSizeLimitB. */
    public static final long TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

    private MetadataValidators() {
    }

    /** Each key a qualified name, each value a valid label value. */
    public static List<FieldError> validateLabels(JsonNode labels, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (labels == null || labels.isNull() || labels.isMissingNode()) {
            return errs;
        }
        if (!labels.isObject()) {
            errs.add(FieldError.invalid(path, labels.toString(), "must be a map of strings"));
            return errs;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            for (String msg : NameValidators.isQualifiedName(e.getKey())) {
                errs.add(FieldError.invalid(path, e.getKey(), msg));
            }
            if (!e.getValue().isTextual()) {
                errs.add(FieldError.invalid(path, e.getValue().toString(), "label values must be strings"));
                continue;
            }
            for (String msg : NameValidators.isValidLabelValue(e.getValue().asText())) {
                errs.add(FieldError.invalid(path, e.getValue().asText(), msg));
            }
        }
        return errs;
    }

    /** Each key a qualified name (compared lower-cased), all of them at most 256 KiB together. */
    public static List<FieldError> validateAnnotations(JsonNode annotations, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (annotations == null || annotations.isNull() || annotations.isMissingNode()) {
            return errs;
        }
        if (!annotations.isObject()) {
            errs.add(FieldError.invalid(path, annotations.toString(), "must be a map of strings"));
            return errs;
        }
        long total = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = annotations.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            for (String msg : NameValidators.isQualifiedName(e.getKey().toLowerCase(Locale.ROOT))) {
                errs.add(FieldError.invalid(path, e.getKey(), msg));
            }
            if (!e.getValue().isTextual()) {
                errs.add(FieldError.invalid(path, e.getValue().toString(), "annotation values must be strings"));
                continue;
            }
            total += e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + e.getValue().asText().getBytes(StandardCharsets.UTF_8).length;
        }
        if (total > TOTAL_ANNOTATION_SIZE_LIMIT) {
            errs.add(new FieldError(FieldError.Type.TOO_LONG, path, "",
                    "may not be more than " + TOTAL_ANNOTATION_SIZE_LIMIT + " bytes"));
        }
        return errs;
    }

    /**
     * ValidateLabelSelector, strict about values (as apps/v1 workloads validate theirs):
     * {@code matchLabels} as labels, and each of {@code matchExpressions} with a known operator,
     * values exactly when In or NotIn, a qualified key and valid values.
     */
    public static List<FieldError> validateLabelSelector(JsonNode selector, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (selector == null || selector.isNull() || selector.isMissingNode()) {
            return errs;
        }
        errs.addAll(validateLabels(selector.get("matchLabels"), path + ".matchLabels"));
        int i = 0;
        for (JsonNode expr : selector.path("matchExpressions")) {
            String p = path + ".matchExpressions[" + i++ + "]";
            String op = expr.path("operator").asText("");
            boolean hasValues = !expr.path("values").isEmpty();
            switch (op) {
                case "In", "NotIn" -> {
                    if (!hasValues) {
                        errs.add(FieldError.required(p + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (hasValues) {
                        errs.add(FieldError.forbidden(p + ".values",
                                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                    }
                }
                default -> errs.add(FieldError.invalid(p + ".operator", op, "not a valid selector operator"));
            }
            String key = expr.path("key").asText("");
            for (String msg : NameValidators.isQualifiedName(key)) {
                errs.add(FieldError.invalid(p + ".key", key, msg));
            }
            int j = 0;
            for (JsonNode v : expr.path("values")) {
                for (String msg : NameValidators.isValidLabelValue(v.asText())) {
                    errs.add(FieldError.invalid(p + ".values[" + j + "]", v.asText(), msg));
                }
                j++;
            }
        }
        return errs;
    }

    /** ValidateNonnegativeField: {@code <path>: Invalid value: -1: must be greater than or equal to 0}. */
    public static List<FieldError> validateNonnegative(long value, String path) {
        return value < 0 ? List.of(FieldError.invalid(path, value, "must be greater than or equal to 0")) : List.of();
    }
}
