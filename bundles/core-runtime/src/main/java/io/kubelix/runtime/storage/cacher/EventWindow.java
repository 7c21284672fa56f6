package io.kubelix.runtime.storage.cacher;

import java.time.Duration;

/**
 * How many recent events a watch cache keeps, as kube's watchCache sizes its window: between
 * {@code minEvents} and {@code maxEvents}. The window doubles when it is full and its oldest event
 * is younger than {@code freshness}, so a client that reconnects within that time can resume from
 * where it was; it halves when the newest quarter of its capacity reaches further back than that,
 * so a resource that changes rarely does not keep a large window. A fixed window has
 * {@code minEvents == maxEvents}.
 *
 * @param minEvents the smallest window, and the first one
 * @param maxEvents the largest window
 * @param freshness how long an event should stay in the window while it is below its largest
 */
public record EventWindow(int minEvents, int maxEvents, Duration freshness) {
    /** kube-apiserver's: 100 to 102,400 events, keeping at least the last 75 seconds. */
    public static final EventWindow DEFAULT = new EventWindow(100, 100 * 1024, Duration.ofSeconds(75));

    public EventWindow {
        if (minEvents < 1 || maxEvents < minEvents) {
            throw new IllegalArgumentException("an event window needs 1 <= minEvents <= maxEvents, not "
                    + minEvents + " and " + maxEvents);
        }
        if (freshness.isNegative()) {
            throw new IllegalArgumentException("an event window's freshness cannot be negative: " + freshness);
        }
    }

    /** A window of exactly {@code events} events. */
    public static EventWindow fixed(int events) {
        return new EventWindow(events, events, Duration.ZERO);
    }

    /** For the log: "10000 events", or "100 to 102400 events, sized to keep the last 75 s". */
    public String describe() {
        return minEvents == maxEvents
                ? minEvents + " events"
                : minEvents + " to " + maxEvents + " events, sized to keep the last " + freshness.toSeconds() + " s";
    }
}
