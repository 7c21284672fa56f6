package io.kubelix.runtime.flowcontrol;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * kube's DroppedRequestsTracker: the {@code Retry-After} a priority level's refusals carry. It starts
 * at 1 second; when, in the last {@code Retry-After} seconds, at least three times that many
 * requests were refused and it has not changed for as long, it doubles (at most 32); when fewer
 * than that many were refused, it comes down by one. It is revised at the first refusal of each
 * second, from the refusals of the seconds before.
 */
public final class DroppedRequestsTracker {
    static final long MAX_RETRY_AFTER = 32;

    private final LongSupplier unixSeconds;
    /** Guarded by this. */
    private final Map<String, Stats> levels = new HashMap<>();

    /** One level's refusals by second, and its Retry-After. */
    private static final class Stats {
        private record Second(long unix, long requests) {
        }

        final ArrayDeque<Second> history = new ArrayDeque<>();
        long currentUnix;
        long currentCount;
        long retryAfter = 1;
        long retryAfterUpdated;

        void record(long now) {
            if (currentUnix == now) {
                currentCount++;
                return;
            }
            history.addLast(new Second(currentUnix, currentCount));
            long keep = Math.min(2 * retryAfter, MAX_RETRY_AFTER);
            while (!history.isEmpty() && currentUnix - history.peekFirst().unix() > keep) {
                history.removeFirst();
            }
            currentUnix = now;
            currentCount = 1;
            revise(now);
        }

        private void revise(long now) {
            long dropped = 0;
            for (Iterator<Second> it = history.descendingIterator(); it.hasNext(); ) {
                Second s = it.next();
                if (now - s.unix() > retryAfter) {
                    break;
                }
                if (s.unix() < now) {
                    dropped += s.requests();
                }
            }
            if (now - retryAfterUpdated >= retryAfter && dropped >= 3 * retryAfter) {
                retryAfter = Math.min(retryAfter * 2, MAX_RETRY_AFTER);
                retryAfterUpdated = now;
            } else if (dropped < retryAfter && retryAfter > 1) {
                retryAfter--;
            }
        }
    }

    /** @param unixSeconds the wall clock, in seconds since the epoch */
    public DroppedRequestsTracker(LongSupplier unixSeconds) {
        this.unixSeconds = unixSeconds;
    }

    public synchronized void recordDroppedRequest(String priorityLevel) {
        levels.computeIfAbsent(priorityLevel, l -> new Stats()).record(unixSeconds.getAsLong());
    }

    /** The seconds a client refused by this level should wait before it tries again. */
    public synchronized long retryAfter(String priorityLevel) {
        Stats s = levels.get(priorityLevel);
        return s == null ? 1 : s.retryAfter;
    }
}
