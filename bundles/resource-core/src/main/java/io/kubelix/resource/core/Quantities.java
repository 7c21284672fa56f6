package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.StatusException;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * resource.Quantity as kube reads it ({@code 10Gi}, {@code 500m}, {@code 1e3}, {@code 2}), to
 * compare and validate amounts. A value that is no quantity is a 400, as kube's decoder answers it.
 */
final class Quantities {
    private static final Pattern QUANTITY = Pattern.compile(
            "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");
    static final String PARSE_ERROR = "quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")), Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")), Map.entry("M", new BigDecimal("1e6")), Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")), Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)), Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)), Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)), Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    private Quantities() {
    }

    /** The amount of a quantity (a string or a JSON number), or null when it is none. */
    static BigDecimal parse(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        if (!value.isTextual()) {
            return null;
        }
        Matcher m = QUANTITY.matcher(value.asText().trim());
        if (!m.matches()) {
            return null;
        }
        String suffix = m.group(2) == null ? "" : m.group(2);
        BigDecimal number = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
        if (suffix.startsWith("e") || suffix.startsWith("E")) {
            return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        }
        return number.multiply(SUFFIXES.get(suffix));
    }

    /** The quantity, or a 400 naming the kind when {@code value} is not one. */
    static BigDecimal require(JsonNode value, String kind) {
        BigDecimal q = parse(value);
        if (q == null) {
            throw StatusException.badRequest(kind + " in version \"v1\" cannot be handled as a " + kind + ": " + PARSE_ERROR);
        }
        return q;
    }

    /** Checks every value of a resource list (such as {@code spec.hard}) is a quantity. */
    static void requireAll(JsonNode list, String kind) {
        if (list != null && list.isObject()) {
            list.fields().forEachRemaining(e -> require(e.getValue(), kind));
        }
    }

    /** The text of a quantity for messages and printers. */
    static String text(JsonNode value) {
        return value == null || value.isNull() ? "0" : value.asText();
    }
}
