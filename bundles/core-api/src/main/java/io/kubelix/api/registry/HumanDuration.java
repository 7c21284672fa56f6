package io.kubelix.api.registry;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * apimachinery's duration.HumanDuration, as kubectl and kube's printers write a duration: the AGE
 * column, and the durations printer columns show (a job's DURATION, a restart's "5m ago").
 */
public final class HumanDuration {

    private HumanDuration() {
    }

    /** The age of an RFC 3339 timestamp, or {@code <unknown>} when it is missing or malformed. */
    public static String since(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isEmpty()) {
            return "<unknown>";
        }
        try {
            return format(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    /** A duration as kube prints it: {@code 45s}, {@code 5m30s}, {@code 3h5m}, {@code 3d2h}, {@code 2y10d}. */
    public static String format(Duration d) {
        long seconds = d.getSeconds();
        // Go's int(d.Seconds()) truncates toward zero; Duration.getSeconds() floors.
        if (seconds < 0 && d.getNano() > 0) {
            seconds++;
        }
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 60 * 2) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        } else if (minutes < 60 * 3) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long dy = (hours / 24) % 365;
            return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
        }
        return hours / 24 / 365 + "y";
    }
}
