package io.kubelix.support.quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Objects;

/**
 * A resource.Quantity ({@code 500m}, {@code 1Gi}, {@code 1e3}, {@code 2}) as kube's
 * {@code resource.ParseQuantity} reads it: the same grammar, the same errors, the same value
 * (rounded up to the nano, binary quantities capped at 2^63-1) and format. Kube's grammar:
 * <pre>
 * quantity        ::= signedNumber suffix
 * signedNumber    ::= number | sign number          sign ::= "+" | "-"
 * number          ::= digits | digits "." digits | digits "." | "." digits
 * suffix          ::= binarySI | decimalExponent | decimalSI
 * binarySI        ::= Ki | Mi | Gi | Ti | Pi | Ei
 * decimalSI       ::= n | u | m | "" | k | M | G | T | P | E
 * decimalExponent ::= "e" signedNumber | "E" signedNumber
 * </pre>
 * Sums and kube's canonical form ({@link #canonical}) are what quotas and limit ranges report.
 */
public final class Quantity implements Comparable<Quantity> {
    /** How a quantity was written, which kube keeps to write it back the same way. */
    public enum Format { DECIMAL_EXPONENT, BINARY_SI, DECIMAL_SI }

    /** kube's splitREString, quoted by its ErrFormatWrong. */
    static final String SPLIT_RE = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
    /** kube's ErrFormatWrong, ErrNumeric and ErrSuffix. */
    public static final String ERR_FORMAT_WRONG = "quantities must match the regular expression '" + SPLIT_RE + "'";
    public static final String ERR_NUMERIC = "unable to parse numeric part of quantity";
    public static final String ERR_SUFFIX = "unable to parse quantity's suffix";

    private static final int NANO_SCALE = 9;
    private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final Map<String, Integer> DECIMAL_SUFFIXES = Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3,
            "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<String, Integer> BINARY_SUFFIXES = Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40,
            "Pi", 50, "Ei", 60);
    private static final String SUFFIX_LETTERS = "eEinumkKMGTP";

    private final BigDecimal value;
    private final Format format;

    private Quantity(BigDecimal value, Format format) {
        this.value = value;
        this.format = format;
    }

    /**
     * kube's ParseQuantity: no surrounding whitespace allowed (see {@link #parseJson}).
     *
     * @throws InvalidQuantityException with kube's message when {@code text} is no quantity
     */
    public static Quantity parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new InvalidQuantityException(ERR_FORMAT_WRONG);
        }
        if (text.equals("0")) {
            return new Quantity(BigDecimal.ZERO, Format.DECIMAL_SI);
        }
        Parts p = Parts.of(text);
        int base;
        int exponent;
        Format format;
        if (DECIMAL_SUFFIXES.containsKey(p.suffix)) {
            base = 10;
            exponent = DECIMAL_SUFFIXES.get(p.suffix);
            format = Format.DECIMAL_SI;
        } else if (BINARY_SUFFIXES.containsKey(p.suffix)) {
            base = 2;
            exponent = BINARY_SUFFIXES.get(p.suffix);
            format = Format.BINARY_SI;
        } else if (p.suffix.length() > 1 && (p.suffix.charAt(0) == 'e' || p.suffix.charAt(0) == 'E')) {
            try {
                exponent = (int) Long.parseLong(p.suffix.substring(1)); // Go's int32(ParseInt(...)) wraps as this does
            } catch (NumberFormatException e) {
                throw new InvalidQuantityException(ERR_SUFFIX);
            }
            base = 10;
            format = Format.DECIMAL_EXPONENT;
        } else {
            throw new InvalidQuantityException(ERR_SUFFIX);
        }
        BigDecimal amount = new BigDecimal(p.num + (p.denom.isEmpty() ? "" : "." + p.denom));
        try {
            amount = base == 10 ? amount.scaleByPowerOfTen(exponent) : amount.multiply(BigDecimal.valueOf(2).pow(exponent));
        } catch (ArithmeticException e) {
            throw new InvalidQuantityException(ERR_NUMERIC); // an exponent beyond what a decimal can hold
        }
        // As kube: a non-zero amount is rounded up (away from zero) to the nano, so asking for a tiny
        // amount still gets some; binary ones are capped; a binary amount below one is decimal.
        if (amount.signum() != 0 && amount.scale() > NANO_SCALE) {
            amount = amount.setScale(NANO_SCALE, RoundingMode.UP);
        }
        if (format == Format.BINARY_SI && amount.compareTo(MAX_ALLOWED) > 0) {
            amount = MAX_ALLOWED;
        }
        if (format == Format.BINARY_SI && amount.compareTo(BigDecimal.ONE) < 0 && amount.signum() > 0) {
            format = Format.DECIMAL_SI;
        }
        return new Quantity(p.positive ? amount : amount.negate(), format);
    }

    /**
     * A quantity as kube's Quantity.UnmarshalJSON reads the text of a JSON string or number: the
     * text is trimmed first.
     */
    public static Quantity parseJson(String jsonText) {
        return parse(jsonText == null ? null : jsonText.trim());
    }

    /** Whether {@code text} is a quantity ({@link #parse} would not throw). */
    public static boolean isQuantity(String text) {
        try {
            parse(text);
            return true;
        } catch (InvalidQuantityException e) {
            return false;
        }
    }

    /** An amount (exact to the nano) written in {@code format}, as kube's NewMilliQuantity and friends make them. */
    public static Quantity of(BigDecimal value, Format format) {
        return new Quantity(value, Objects.requireNonNull(format));
    }

    /** kube's Add: the sum, in this quantity's format unless this one is zero, when it takes the other's. */
    public Quantity add(Quantity other) {
        return new Quantity(value.add(other.value), value.signum() == 0 ? other.format : format);
    }

    /**
     * kube's String(): the canonical form of this amount in its format. Binary SI is kept for whole
     * amounts of 1024 or more ({@code 1Gi}, {@code 1536Mi}) and is decimal SI otherwise; decimal SI
     * and exponents use the largest power of 1000 that keeps the number whole ({@code 500m},
     * {@code 1k}, {@code 1500}, {@code 1e3}).
     */
    public String canonical() {
        if (value.signum() == 0) {
            return "0";
        }
        Format f = format;
        BigDecimal stripped = value.stripTrailingZeros();
        if (f == Format.BINARY_SI && (value.abs().compareTo(BigDecimal.valueOf(1024)) < 0 || stripped.scale() > 0)) {
            f = Format.DECIMAL_SI;
        }
        if (f == Format.BINARY_SI) {
            BigInteger n = value.toBigIntegerExact();
            BigInteger k = BigInteger.valueOf(1024);
            int exponent = 0;
            while (exponent < 60 && n.mod(k).signum() == 0) {
                n = n.divide(k);
                exponent += 10;
            }
            return n + binarySuffix(exponent);
        }
        int exponent = Math.floorDiv(-stripped.scale(), 3) * 3;
        exponent = Math.max(-NANO_SCALE, f == Format.DECIMAL_SI ? Math.min(exponent, 18) : exponent);
        String number = value.movePointLeft(exponent).setScale(0, RoundingMode.CEILING).toPlainString();
        if (f == Format.DECIMAL_EXPONENT) {
            return exponent == 0 ? number : number + "e" + exponent;
        }
        return number + decimalSuffix(exponent);
    }

    private static String binarySuffix(int exponent) {
        return BINARY_SUFFIXES.entrySet().stream().filter(e -> e.getValue() == exponent).map(Map.Entry::getKey)
                .findFirst().orElse("");
    }

    private static String decimalSuffix(int exponent) {
        return DECIMAL_SUFFIXES.entrySet().stream().filter(e -> e.getValue() == exponent).map(Map.Entry::getKey)
                .findFirst().orElse("");
    }

    /** The amount, exact to the nano. */
    public BigDecimal value() {
        return value;
    }

    public Format format() {
        return format;
    }

    public int signum() {
        return value.signum();
    }

    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0 && format == q.format;
    }

    @Override
    public int hashCode() {
        return Objects.hash(value.stripTrailingZeros(), format);
    }

    @Override
    public String toString() {
        return value.toPlainString() + " (" + format + ")";
    }

    /** kube's parseQuantityString: sign, numerator, denominator and suffix, each as written. */
    record Parts(boolean positive, String num, String denom, String suffix) {
        static Parts of(String str) {
            boolean positive = true;
            int pos = 0;
            int end = str.length();
            if (str.charAt(0) == '-') {
                positive = false;
                pos++;
            } else if (str.charAt(0) == '+') {
                pos++;
            }
            while (pos < end && str.charAt(pos) == '0') {
                pos++;
            }
            if (pos >= end) {
                return new Parts(positive, "0", "", "");
            }
            int numStart = pos;
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            String num = pos == numStart ? "0" : str.substring(numStart, pos);
            String denom = "";
            if (pos < end && str.charAt(pos) == '.') {
                pos++;
                int denomStart = pos;
                while (pos < end && isDigit(str.charAt(pos))) {
                    pos++;
                }
                denom = str.substring(denomStart, pos);
            }
            int suffixStart = pos;
            while (pos < end && SUFFIX_LETTERS.indexOf(str.charAt(pos)) >= 0) {
                pos++;
            }
            if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
                pos++;
            }
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            if (pos < end) {
                // a character that is neither a suffix letter, a sign nor a digit of the exponent
                throw new InvalidQuantityException(ERR_FORMAT_WRONG);
            }
            return new Parts(positive, num, denom, str.substring(suffixStart));
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }
}
