package io.kubelix.support.storage;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as kube-apiserver's flags write them ({@code 5m}, {@code 1h30m}, {@code 90s}, {@code 500ms}, {@code 0}). */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");
    private static final Pattern WHOLE = Pattern.compile("(?:" + PART.pattern() + ")+");

    private Durations() {
    }

    /**
     * Parses {@code value}; a bare number is seconds.
     *
     * @param name the setting, for the error
     * @throws IllegalArgumentException naming the setting when {@code value} is not a duration
     */
    public static Duration parse(String name, String value) {
        String v = value.trim();
        if (v.equals("0")) {
            return Duration.ZERO;
        }
        if (v.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(v));
        }
        if (!WHOLE.matcher(v).matches()) {
            throw new IllegalArgumentException("invalid " + name + " \"" + value
                    + "\": must be a duration such as 5m, 1h30m, 90s or 0");
        }
        Duration d = Duration.ZERO;
        Matcher part = PART.matcher(v);
        while (part.find()) {
            long n = Long.parseLong(part.group(1));
            d = d.plus(switch (part.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
        }
        return d;
    }

    /** {@code d} as the flags write it: 5m, 1h30m, 90s, 500ms. */
    public static String format(Duration d) {
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        StringBuilder b = new StringBuilder();
        if (s >= 3600) {
            b.append(s / 3600).append('h');
        }
        if (s % 3600 >= 60) {
            b.append(s % 3600 / 60).append('m');
        }
        if (s % 60 != 0 || b.length() == 0) {
            b.append(s % 60).append('s');
        }
        return b.toString();
    }
}
