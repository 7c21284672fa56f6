package io.kubelix.runtime.validation;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;

/**
 * A number a client sent, written as kube's messages write it: an integer in its decimal digits,
 * any other number as Go's {@code %v} (strconv's shortest {@code 'g'}) writes a float, with an
 * exponent of at least two digits when the number is below 1e-4 or from 1e+06 on ({@code 1.5},
 * {@code 1e+06}, {@code 2.5e-05}, {@code 1e+400}). Bodies are read with exact decimals, so even a
 * number beyond float64's range is written by its value, not as {@code Infinity}.
 */
final class GoNumbers {
    /** strconv's exponent threshold for the shortest {@code 'g'} format ("use precision 6 for this decision"). */
    private static final int EXPONENT_FROM = 6;
    private static final int EXPONENT_BELOW = -4;

    private GoNumbers() {
    }

    /** {@code node}, a JSON number, as a message shows it. */
    static String format(JsonNode node) {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue().toString();
        }
        return formatFloat(node.decimalValue());
    }

    /** strconv.FormatFloat(v, 'g', -1, _) for the exact decimal {@code v}. */
    static String formatFloat(BigDecimal v) {
        if (v.signum() == 0) {
            return "0";
        }
        BigDecimal stripped = v.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        // The exponent of the first digit: digits d1d2... times 10^(-scale) is d1.d2... times 10^exp.
        int exp = digits.length() - 1 - stripped.scale();
        String sign = stripped.signum() < 0 ? "-" : "";
        if (exp < EXPONENT_BELOW || exp >= EXPONENT_FROM) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = Integer.toString(Math.abs(exp));
            return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return stripped.toPlainString();
    }
}
