package io.kubelix.resource.storage;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Field checks the storage.k8s.io kinds share (pkg/apis/storage/validation). */
final class StorageValidation {
    static final String IMMUTABLE = "field is immutable";

    private StorageValidation() {
    }

    /** A field's text, or null when absent or null. */
    static String text(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** Whether a field is absent or null (a nil pointer in Go). */
    static boolean unset(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v == null || v.isNull();
    }

    /** A provisioner or driver name: required, a qualified name once lower-cased. */
    static List<FieldError> qualifiedName(String value, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (value == null || value.isEmpty()) {
            errs.add(FieldError.required(path, ""));
            return errs;
        }
        String lower = value.toLowerCase(Locale.ROOT);
        NameValidators.isQualifiedName(lower).forEach(m -> errs.add(FieldError.invalid(path, lower, m)));
        return errs;
    }

    /** A DNS-1123 subdomain (a node or CSI driver name); each message as an Invalid error. */
    static List<FieldError> subdomain(String value, String path) {
        List<FieldError> errs = new ArrayList<>();
        NameValidators.isDNS1123Subdomain(value == null ? "" : value).forEach(m -> errs.add(FieldError.invalid(path,
                value == null ? "" : value, m)));
        return errs;
    }
}
