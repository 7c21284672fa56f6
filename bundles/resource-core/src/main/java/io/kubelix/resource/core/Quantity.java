package io.kubelix.resource.core;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource.Quantity's value ({@code 500m}, {@code 1Gi}, {@code 1e3}), read to compare and add
 * quantities as kube's QoS computation does. Not a full Quantity: no canonical form is written back.
 */
final class Quantity {
    private static final Pattern FORM = Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))"
            + "(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")), Map.entry("", BigDecimal.ONE),
            Map.entry("k", new BigDecimal("1e3")), Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")), Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")), Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1024)), Map.entry("Mi", BigDecimal.valueOf(1024L * 1024)),
            Map.entry("Gi", BigDecimal.valueOf(1024L * 1024 * 1024)), Map.entry("Ti", BigDecimal.valueOf(1024L << 30)),
            Map.entry("Pi", BigDecimal.valueOf(1024L << 40)), Map.entry("Ei", BigDecimal.valueOf(1024L << 50)));

    private Quantity() {
    }

    /** The value of a quantity string or number, or null when it is not a quantity. */
    static BigDecimal parse(com.fasterxml.jackson.databind.JsonNode q) {
        if (q == null || q.isNull()) {
            return null;
        }
        if (q.isNumber()) {
            return q.decimalValue();
        }
        Matcher m = FORM.matcher(q.asText().trim());
        if (!q.isTextual() || !m.matches()) {
            return null;
        }
        BigDecimal number = new BigDecimal(m.group(1).startsWith(".") ? "0" + m.group(1) : m.group(1));
        String suffix = m.group(2) == null ? "" : m.group(2);
        if (suffix.startsWith("e") || suffix.startsWith("E")) {
            return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        }
        return number.multiply(SUFFIXES.get(suffix));
    }
}
