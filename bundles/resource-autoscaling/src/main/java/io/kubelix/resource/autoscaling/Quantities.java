package io.kubelix.resource.autoscaling;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The sign of a resource.Quantity string ({@code 500m}, {@code 1Gi}, {@code 2e3}), as metric targets need it. */
final class Quantities {
    private static final Pattern QUANTITY = Pattern.compile("([+-]?[0-9.]+)([eE][+-]?[0-9]+)?([a-zA-Z]*)");

    private Quantities() {
    }

    /** True for a well-formed quantity greater than zero; false for zero, negative or unparsable ones. */
    static boolean isPositive(String quantity) {
        Matcher m = QUANTITY.matcher(quantity.trim());
        if (!m.matches()) {
            return false;
        }
        try {
            return new BigDecimal(m.group(1)).signum() > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
