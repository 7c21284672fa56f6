package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * An intstr.IntOrString rolling-update bound ({@code 1} or {@code "25%"}) as apps validation reads
 * it: ValidatePositiveIntOrPercent, getIntOrPercentValue and IsNotMoreThan100Percent. Kube's
 * messages print the value as Go's {@code %#v} of the struct, and so do these.
 */
final class IntOrPercent {
    private static final Pattern PERCENT = Pattern.compile("[0-9]+%");

    private IntOrPercent() {
    }

    /** ValidatePositiveIntOrPercent: a percent string or a non-negative integer. */
    static List<FieldError> validatePositive(JsonNode v, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (v == null || v.isNull() || v.isMissingNode()) {
            return errs;
        }
        if (v.isTextual()) {
            if (!PERCENT.matcher(v.asText()).matches()) {
                errs.add(FieldError.invalid(path, go(v), "a valid percent string must be a numeric string followed by an "
                        + "ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
            }
        } else if (v.isIntegralNumber()) {
            errs.addAll(MetadataValidators.validateNonnegative(v.asLong(), path));
        } else {
            errs.add(FieldError.invalid(path, go(v), "must be an integer or percentage (e.g '5%%')"));
        }
        return errs;
    }

    /** getIntOrPercentValue: the number of a valid percent, the integer, or 0. */
    static long value(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return 0;
        }
        if (v.isTextual()) {
            String s = v.asText();
            if (PERCENT.matcher(s).matches()) {
                return Long.parseLong(s.substring(0, s.length() - 1));
            }
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return v.asLong(0);
    }

    /** IsNotMoreThan100Percent. */
    static List<FieldError> notMoreThan100Percent(JsonNode v, String path) {
        if (v != null && v.isTextual() && PERCENT.matcher(v.asText()).matches() && value(v) > 100) {
            return List.of(FieldError.invalid(path, go(v), "must not be greater than 100%"));
        }
        return List.of();
    }

    /** The value as kube prints an intstr.IntOrString in a field error. */
    static GoSyntax go(JsonNode v) {
        if (v != null && v.isTextual()) {
            return new GoSyntax("intstr.IntOrString{Type:1, IntVal:0, StrVal:\"" + v.asText() + "\"}");
        }
        return new GoSyntax("intstr.IntOrString{Type:0, IntVal:" + (v == null ? 0 : v.asLong(0)) + ", StrVal:\"\"}");
    }
}
