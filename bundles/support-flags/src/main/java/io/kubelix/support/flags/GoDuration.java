package io.kubelix.support.flags;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration flag as Go's time.ParseDuration reads it, in whole units: {@code 24h}, {@code 1h30m},
 * {@code 90s}, {@code 250ms}.
 */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+)(h|ms|m|s)");

    private GoDuration() {
    }

    /** @throws IllegalArgumentException naming {@code flag} when {@code value} is not such a duration */
    public static Duration parse(String flag, String value) {
        Matcher m = PART.matcher(value);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                case "ms" -> Duration.ofMillis(n);
                default -> Duration.ofSeconds(n);
            });
            end = m.end();
        }
        if (end == 0 || end != value.length()) {
            throw new IllegalArgumentException(flag + " \"" + value + "\": not a duration such as 24h, 1h30m or 3600s");
        }
        return total;
    }
}
