package io.kubelix.resource.batch;

import io.kubelix.support.time.GoDuration;

import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The cron syntax kube accepts in a CronJob's {@code spec.schedule}: robfig/cron's ParseStandard, five
 * fields (minute, hour, day of month, month, day of week) with {@code *}, {@code ?}, lists, ranges,
 * steps and month and weekday names, or a descriptor ({@code @hourly}, {@code @daily},
 * {@code @every 1h30m}...), optionally after {@code TZ=} or {@code CRON_TZ=}. {@link #check} answers
 * the parser's error text, which kube shows as the field error's detail.
 */
final class CronSchedule {
    private record Bounds(int min, int max, Map<String, Integer> names) {
    }

    private static final Bounds MINUTES = new Bounds(0, 59, Map.of());
    private static final Bounds HOURS = new Bounds(0, 23, Map.of());
    private static final Bounds DOM = new Bounds(1, 31, Map.of());
    private static final Bounds MONTHS = new Bounds(1, 12, Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2),
            Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7),
            Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12)));
    private static final Bounds DOW = new Bounds(0, 6, Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4,
            "fri", 5, "sat", 6));
    private static final List<Bounds> FIELDS = List.of(MINUTES, HOURS, DOM, MONTHS, DOW);
    private static final List<String> DESCRIPTORS = List.of("@yearly", "@annually", "@monthly", "@weekly", "@daily",
            "@midnight", "@hourly");
    private static final String EVERY = "@every ";
    /** One component of a Go duration: a decimal number and a unit, or a number missing its unit. */

    private CronSchedule() {
    }

    /** The parser's error for {@code spec}, empty when it parses. */
    static Optional<String> check(String spec) {
        if (spec.isEmpty()) {
            return Optional.of("empty spec string");
        }
        if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
            int space = spec.indexOf(' ');
            String zone = spec.substring(spec.indexOf('=') + 1, space < 0 ? spec.length() : space);
            if (!validZone(zone)) {
                return Optional.of("provided bad location " + zone + ": unknown time zone " + zone);
            }
            spec = space < 0 ? "" : spec.substring(space).strip();
        }
        if (spec.startsWith("@")) {
            return descriptor(spec);
        }
        String[] fields = spec.isBlank() ? new String[0] : spec.strip().split("\\s+");
        if (fields.length != FIELDS.size()) {
            return Optional.of("expected exactly " + FIELDS.size() + " fields, found " + fields.length + ": ["
                    + String.join(" ", fields) + "]");
        }
        for (int i = 0; i < fields.length; i++) {
            for (String expr : fields[i].split(",")) {
                if (expr.isEmpty()) {
                    continue;
                }
                Optional<String> err = range(expr, FIELDS.get(i));
                if (err.isPresent()) {
                    return err;
                }
            }
        }
        return Optional.empty();
    }

    /** Whether Go's time.LoadLocation knows {@code zone} (the IANA database, as Java has it). */
    static boolean validZone(String zone) {
        return zone.equals("UTC") || zone.equals("Local") || ZoneId.getAvailableZoneIds().contains(zone);
    }

    private static Optional<String> descriptor(String spec) {
        if (DESCRIPTORS.contains(spec)) {
            return Optional.empty();
        }
        if (spec.startsWith(EVERY)) {
            return goDuration(spec.substring(EVERY.length())).map(e -> "failed to parse duration " + spec + ": " + e);
        }
        return Optional.of("unrecognized descriptor: " + spec);
    }

    /** getRange: {@code *}, {@code ?}, {@code n}, {@code a-b}, each with an optional {@code /step}. */
    private static Optional<String> range(String expr, Bounds b) {
        String[] rangeAndStep = expr.split("/", -1);
        String[] lowAndHigh = rangeAndStep[0].split("-", -1);
        long start;
        long end;
        try {
            if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
                start = b.min();
                end = b.max();
            } else {
                start = intOrName(lowAndHigh[0], b);
                if (lowAndHigh.length == 1) {
                    end = start;
                } else if (lowAndHigh.length == 2) {
                    end = intOrName(lowAndHigh[1], b);
                } else {
                    return Optional.of("too many hyphens: " + expr);
                }
            }
            long step = 1;
            if (rangeAndStep.length == 2) {
                step = parseInt(rangeAndStep[1]);
                if (lowAndHigh.length == 1) {
                    end = b.max();
                }
            } else if (rangeAndStep.length > 2) {
                return Optional.of("too many slashes: " + expr);
            }
            if (start < b.min()) {
                return Optional.of("beginning of range (" + start + ") below minimum (" + b.min() + "): " + expr);
            }
            if (end > b.max()) {
                return Optional.of("end of range (" + end + ") above maximum (" + b.max() + "): " + expr);
            }
            if (start > end) {
                return Optional.of("beginning of range (" + start + ") beyond end of range (" + end + "): " + expr);
            }
            if (step == 0) {
                return Optional.of("step of range should be a positive number: " + expr);
            }
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static long intOrName(String expr, Bounds b) {
        Integer named = b.names().get(expr.toLowerCase(Locale.ROOT));
        return named != null ? named : parseInt(expr);
    }

    /** mustParseInt, with strconv.Atoi's words. */
    private static long parseInt(String expr) {
        long n;
        try {
            n = Long.parseLong(expr);
        } catch (NumberFormatException e) {
            boolean digits = expr.matches("[+-]?[0-9]+");
            throw new IllegalArgumentException("failed to parse int from " + expr + ": strconv.Atoi: parsing \""
                    + expr + "\": " + (digits ? "value out of range" : "invalid syntax"));
        }
        if (n < 0) {
            throw new IllegalArgumentException("negative number (" + n + ") not allowed: " + expr);
        }
        return n;
    }

    /** Go's time.ParseDuration error for {@code s}, empty when it parses ({@code 1h30m}, {@code 90s}, {@code 1.5h}). */
    static Optional<String> goDuration(String s) {
        try {
            GoDuration.parse(s);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }
}
