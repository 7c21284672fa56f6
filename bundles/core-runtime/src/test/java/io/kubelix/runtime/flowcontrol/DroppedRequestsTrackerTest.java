package io.kubelix.runtime.flowcontrol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Retry-After as kube's dropped requests tracker computes it, second by second. */
class DroppedRequestsTrackerTest {
    private long now = 1_000;
    private final DroppedRequestsTracker tracker = new DroppedRequestsTracker(() -> now);

    private void drop(int n) {
        for (int i = 0; i < n; i++) {
            tracker.recordDroppedRequest("workload-low");
        }
    }

    @Test
    void retryAfterDoublesUnderRefusalsAndComesBackDown() {
        assertEquals(1, tracker.retryAfter("workload-low"), "1 before any refusal");
        drop(5);
        assertEquals(1, tracker.retryAfter("workload-low"), "revised only at the next second's first refusal");
        now++;
        drop(1);
        assertEquals(2, tracker.retryAfter("workload-low"), "5 refusals in the last second, at least 3 times 1");
        now++;
        drop(1);
        assertEquals(2, tracker.retryAfter("workload-low"), "6 refusals in the last 2 seconds, but it doubled a second ago");
        now++;
        drop(20);
        now++;
        drop(1);
        assertEquals(4, tracker.retryAfter("workload-low"), "21 refusals in the last 2 seconds");
        assertEquals(1, tracker.retryAfter("global-default"), "each level has its own");

        for (int i = 0; i < 40; i++) {
            now++;
            drop(1);
        }
        assertEquals(4, tracker.retryAfter("workload-low"), "one refusal a second: as many in the last 4 seconds");
        for (int i = 0; i < 3; i++) {
            now += 5;
            drop(1);
        }
        assertEquals(1, tracker.retryAfter("workload-low"), "fewer refusals than seconds bring it down by one each time");
    }

    @Test
    void retryAfterIsAtMost32() {
        for (int i = 0; i < 200; i++) {
            now++;
            drop(500);
        }
        assertEquals(DroppedRequestsTracker.MAX_RETRY_AFTER, tracker.retryAfter("workload-low"));
    }
}
