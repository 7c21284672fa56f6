package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/** Latency histograms in microseconds, printed in milliseconds. */
final class Stats {
    static final long MAX_MICROS = 600_000_000L;

    private Stats() {
    }

    /** Auto-resizing, so ten thousand idle watchers' histograms cost almost nothing until they record. */
    static Histogram histogram() {
        return new Histogram(3);
    }

    static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
    }

    /** One table row: name, count, p50, p90, p99, p99.9, max (ms). */
    static String row(String name, Histogram h) {
        if (h.getTotalCount() == 0) {
            return String.format(Locale.ROOT, "| %s | 0 | - | - | - | - | - |", name);
        }
        return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s |", name, h.getTotalCount(),
                ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)), ms(h.getValueAtPercentile(99)),
                ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue()));
    }

    static String header() {
        return "| what | count | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms |\n|---|---|---|---|---|---|---|";
    }
}
