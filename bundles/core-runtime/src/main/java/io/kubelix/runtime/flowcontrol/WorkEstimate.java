package io.kubelix.runtime.flowcontrol;

import java.time.Duration;

/**
 * kube's WorkEstimate: the seats a request occupies while it executes ({@code initialSeats}), and
 * those it keeps for {@code additionalLatency} after it has answered ({@code finalSeats}), the work
 * its watchers' events cost the server. The client does not wait for the additional latency.
 */
public record WorkEstimate(int initialSeats, int finalSeats, Duration additionalLatency) {
    /** One seat, nothing after: what most requests cost. */
    public static final WorkEstimate ONE_SEAT = new WorkEstimate(1, 0, Duration.ZERO);

    /** The seats the request holds from its dispatch until its additional latency has passed. */
    public int maxSeats() {
        return Math.max(initialSeats, finalSeats);
    }

    /** Seat-seconds of its execution, taking {@code serviceSeconds}, and of its additional latency. */
    double work(double serviceSeconds) {
        return initialSeats * serviceSeconds + finalSeats * additionalLatency.toNanos() / 1e9;
    }
}
