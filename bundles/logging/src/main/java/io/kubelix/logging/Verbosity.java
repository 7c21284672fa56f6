package io.kubelix.logging;

import ch.qos.logback.classic.Level;

/**
 * kube's verbosity ({@code -v}) of a Logback level: what {@code "v"} a JSON line carries. The
 * launcher turns on DEBUG from {@code -v=3} (kube logs each request at V(3)) and TRACE from
 * {@code -v=6}, so a line's {@code v} is the lowest verbosity that shows it.
 */
final class Verbosity {
    private Verbosity() {
    }

    static int of(Level level) {
        if (level.isGreaterOrEqual(Level.INFO)) {
            return 0;
        }
        return level.isGreaterOrEqual(Level.DEBUG) ? 3 : 6;
    }
}
