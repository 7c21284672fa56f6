package io.kubelix.support.time;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.Duration} in text: {@link #parse} is {@code time.ParseDuration} ({@code 1h30m},
 * {@code 1.5h}, {@code -90s}, {@code 250ms}, {@code 0}) with Go's error messages, and {@link #format} is
 * {@code Duration.String()} ({@code 1h30m0s}, {@code 1.5s}, {@code 0s}). A duration is a signed count
 * of nanoseconds in 64 bits, as in Go.
 */
public final class GoDuration {
    private static final long NANOSECOND = 1;
    private static final long MICROSECOND = 1_000 * NANOSECOND;
    private static final long MILLISECOND = 1_000 * MICROSECOND;
    private static final long SECOND = 1_000 * MILLISECOND;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final Map<String, Long> UNITS = Map.of("ns", NANOSECOND, "us", MICROSECOND,
            "\u00b5s", MICROSECOND, "\u03bcs", MICROSECOND, "ms", MILLISECOND, "s", SECOND, "m", MINUTE, "h", HOUR);
    // 1<<63 as an unsigned 64-bit number, the bound Go checks its sums against
    private static final long TWO_63 = Long.MIN_VALUE;

    private GoDuration() {
    }

    /**
     * {@code time.ParseDuration}: a possibly signed sequence of decimal numbers, each with an optional
     * fraction and a unit ({@code ns}, {@code us} or {@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}).
     *
     * @throws IllegalArgumentException with Go's message ({@code time: invalid duration "x"},
     *                                  {@code time: missing unit in duration "5"}, {@code time: unknown unit "d" in duration "5d"})
     */
    public static Duration parse(String s) {
        return Duration.ofNanos(parseNanos(s));
    }

    /**
     * A duration flag or setting: {@link #parse}, blanks around it ignored.
     *
     * @throws IllegalArgumentException naming the flag: {@code invalid <flag> "<value>": <Go's message>}
     */
    public static Duration parseFlag(String flag, String value) {
        try {
            return parse(value.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid " + flag + " \"" + value + "\": " + e.getMessage(), e);
        }
    }

    /** {@code Duration.String()} of {@code d}; nanoseconds beyond Go's 64 bits are not representable. */
    public static String format(Duration d) {
        return format(d.toNanos());
    }

    /** {@code Duration.String()}: {@code 1h2m3.5s}, {@code 1m0s}, {@code 150ms}, {@code 2.2µs}, {@code 0s}. */
    public static String format(long nanos) {
        boolean neg = nanos < 0;
        long u = neg ? -nanos : nanos; // unsigned: Long.MIN_VALUE stays 1<<63
        StringBuilder b = new StringBuilder();
        if (Long.compareUnsigned(u, SECOND) < 0) {
            if (u == 0) {
                return "0s";
            }
            String unit;
            int prec;
            if (u < MICROSECOND) {
                unit = "ns";
                prec = 0;
            } else if (u < MILLISECOND) {
                unit = "\u00b5s";
                prec = 3;
            } else {
                unit = "ms";
                prec = 6;
            }
            b.append(Long.toUnsignedString(u / pow10(prec))).append(fraction(u % pow10(prec), prec)).append(unit);
        } else {
            long seconds = Long.divideUnsigned(u, SECOND);
            String frac = fraction(Long.remainderUnsigned(u, SECOND), 9);
            long minutes = seconds / 60;
            long hours = minutes / 60;
            if (hours > 0) {
                b.append(hours).append('h');
            }
            if (minutes > 0) {
                b.append(minutes % 60).append('m');
            }
            b.append(seconds % 60).append(frac).append('s');
        }
        return neg ? "-" + b : b.toString();
    }

    // fmtFrac: the digits after the point without trailing zeros, and no point at all for none.
    private static String fraction(long v, int prec) {
        if (v == 0) {
            return "";
        }
        String digits = String.format("%0" + prec + "d", v);
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        return "." + digits.substring(0, end);
    }

    private static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    private static long parseNanos(String orig) {
        String s = orig;
        boolean neg = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            neg = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return 0;
        }
        if (s.isEmpty()) {
            throw invalid(orig);
        }
        long d = 0; // unsigned
        int at = 0;
        while (at < s.length()) {
            char c = s.charAt(at);
            if (!(c == '.' || c >= '0' && c <= '9')) {
                throw invalid(orig);
            }
            // the integer part: [0-9]*
            int start = at;
            long v = 0;
            while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
                if (Long.compareUnsigned(v, Long.divideUnsigned(TWO_63, 10)) > 0) {
                    throw invalid(orig);
                }
                v = v * 10 + (s.charAt(at) - '0');
                if (Long.compareUnsigned(v, TWO_63) > 0) {
                    throw invalid(orig);
                }
                at++;
            }
            boolean pre = at != start;
            // the fraction: (\.[0-9]*)?, precision dropped once it no longer fits
            long f = 0;
            double scale = 1;
            boolean post = false;
            if (at < s.length() && s.charAt(at) == '.') {
                at++;
                int fracStart = at;
                boolean overflow = false;
                while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
                    if (!overflow) {
                        if (Long.compareUnsigned(f, Long.MAX_VALUE / 10) > 0) {
                            overflow = true;
                        } else {
                            long y = f * 10 + (s.charAt(at) - '0');
                            if (Long.compareUnsigned(y, TWO_63) > 0) {
                                overflow = true;
                            } else {
                                f = y;
                                scale *= 10;
                            }
                        }
                    }
                    at++;
                }
                post = at != fracStart;
            }
            if (!pre && !post) {
                throw invalid(orig);
            }
            // the unit: everything up to the next digit or point
            int unitStart = at;
            while (at < s.length() && s.charAt(at) != '.' && !(s.charAt(at) >= '0' && s.charAt(at) <= '9')) {
                at++;
            }
            if (at == unitStart) {
                throw new IllegalArgumentException("time: missing unit in duration " + quote(orig));
            }
            String u = s.substring(unitStart, at);
            Long unit = UNITS.get(u);
            if (unit == null) {
                throw new IllegalArgumentException("time: unknown unit " + quote(u) + " in duration " + quote(orig));
            }
            if (Long.compareUnsigned(v, Long.divideUnsigned(TWO_63, unit)) > 0) {
                throw invalid(orig);
            }
            v *= unit;
            if (f > 0) {
                // as Go: a float64 is exact enough for a fraction of an hour
                v += (long) ((double) f * ((double) unit / scale));
                if (Long.compareUnsigned(v, TWO_63) > 0) {
                    throw invalid(orig);
                }
            }
            d += v;
            if (Long.compareUnsigned(d, TWO_63) > 0) {
                throw invalid(orig);
            }
        }
        if (neg) {
            return -d;
        }
        if (Long.compareUnsigned(d, Long.MAX_VALUE) > 0) {
            throw invalid(orig);
        }
        return d;
    }

    private static IllegalArgumentException invalid(String orig) {
        return new IllegalArgumentException("time: invalid duration " + quote(orig));
    }

    /** time's quote: in double quotes, {@code "} and {@code \} escaped, bytes outside printable ASCII as {@code \xNN}. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            int n = Character.charCount(c);
            if (c >= 0x80 || c < ' ') {
                for (byte x : s.substring(i, i + n).getBytes(StandardCharsets.UTF_8)) {
                    b.append(String.format("\\x%02x", x & 0xff));
                }
            } else {
                if (c == '"' || c == '\\') {
                    b.append('\\');
                }
                b.append((char) c);
            }
            i += n;
        }
        return b.append('"').toString();
    }
}
