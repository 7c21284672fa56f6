package io.kubelix.runtime.flowcontrol;

import io.kubelix.api.request.RequestInfo;

import java.time.Duration;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * kube's work estimator (k8s.io/apiserver's {@code util/flowcontrol/request}): how many seats a
 * request takes. A LIST costs a seat per 100 objects it is estimated to go through, from the
 * resource's object count (a watch that asks for its initial events costs as a LIST served from the
 * cache); a write reaching 10 or more watchers keeps a seat per 10 of them for 5 ms per seat after
 * it answers; everything else takes one seat. No request takes more than its level's maximum, at
 * most 10.
 */
public final class WorkEstimator {
    static final int MINIMUM_SEATS = 1;
    static final int MAXIMUM_SEATS_LIMIT = 10;
    static final double OBJECTS_PER_SEAT = 100;
    static final double WATCHES_PER_SEAT = 10;
    static final Duration EVENT_ADDITIONAL_DURATION = Duration.ofMillis(5);
    static final Set<String> MUTATING_VERBS = Set.of("create", "update", "patch", "delete");

    /** An object count that is unknown: the resource is not counted (kube's ObjectCountNotFoundErr). */
    public static final long NOT_FOUND = -2;
    /** An object count that is not known yet or any longer (kube's ObjectCountStaleErr). */
    public static final long STALE = -1;

    private final ToLongFunction<String> objectCounts;
    private final WatchTracker watches;

    /**
     * @param objectCounts the stored objects of a resource as kube names it ({@code pods},
     *                     {@code deployments.apps}), or {@link #NOT_FOUND} or {@link #STALE}
     */
    public WorkEstimator(ToLongFunction<String> objectCounts, WatchTracker watches) {
        this.objectCounts = objectCounts;
        this.watches = watches;
    }

    /**
     * @param query     the request's query parameters, null when absent
     * @param maxSeats  the level's maximum (0: none but the limit of 10)
     */
    public WorkEstimate estimate(RequestInfo info, Function<String, String> query, int maxSeats) {
        int max = maxSeats == 0 || maxSeats > MAXIMUM_SEATS_LIMIT ? MAXIMUM_SEATS_LIMIT : maxSeats;
        return switch (info.verb()) {
            case "list" -> list(info, query, max);
            // WatchList (on in kube 1.32): a watch sending its initial events costs what a LIST would.
            case "watch" -> list(info, query, max);
            case "create", "update", "patch", "delete" -> mutating(info, max);
            default -> WorkEstimate.ONE_SEAT;
        };
    }

    private WorkEstimate list(RequestInfo info, Function<String, String> query, int maxSeats) {
        if (!info.name().isEmpty()) {
            // A LIST or watch of one object by name reads it as a GET does.
            return WorkEstimate.ONE_SEAT;
        }
        if (info.verb().equals("watch") && !"true".equals(query.apply("sendInitialEvents"))) {
            return WorkEstimate.ONE_SEAT;
        }
        long limit;
        try {
            String l = query.apply("limit");
            limit = l == null || l.isEmpty() ? 0 : Long.parseLong(l);
        } catch (NumberFormatException e) {
            // Bound to fail validation: kube gives it the maximum, as it does every option it cannot read.
            return seats(maxSeats);
        }
        String group = info.apiGroup();
        long stored = objectCounts.applyAsLong(group.isEmpty() ? info.resource() : info.resource() + "." + group);
        if (stored == STALE) {
            return seats(maxSeats);
        }
        if (stored < 0) {
            // Not counted here, as an aggregated resource is not: its cost to this server is small.
            return WorkEstimate.ONE_SEAT;
        }
        long returned = limit > 0 && limit < stored ? limit : stored;
        long processed;
        if (info.verb().equals("watch") || !listFromStorage(query, limit)) {
            processed = stored;
        } else if (!empty(query.apply("fieldSelector")) || !empty(query.apply("labelSelector"))) {
            processed = stored + returned;
        } else {
            processed = 2 * returned;
        }
        long seats = (long) Math.ceil(processed / OBJECTS_PER_SEAT);
        return seats((int) Math.min(Math.max(seats, MINIMUM_SEATS), maxSeats));
    }

    /**
     * kube's shouldListFromStorage with a consistent list served from the cache (ConsistentListFromCache,
     * on in kube 1.32): continuations, and resourceVersionMatch other than NotOlderThan (or a legacy
     * exact match: a limit with a resourceVersion other than 0), go to the storage.
     */
    private static boolean listFromStorage(Function<String, String> query, long limit) {
        String rv = query.apply("resourceVersion");
        String match = query.apply("resourceVersionMatch");
        boolean legacyExactMatch = limit > 0 && empty(match) && !empty(rv) && !"0".equals(rv);
        boolean unsupportedMatch = !empty(match) && !match.equals("NotOlderThan") || legacyExactMatch;
        return !empty(query.apply("continue")) || unsupportedMatch;
    }

    private WorkEstimate mutating(RequestInfo info, int maxSeats) {
        if (info.resource().equals("serviceaccounts") && info.subresource().equals("token")) {
            // A token request writes nothing any watcher sees.
            return WorkEstimate.ONE_SEAT;
        }
        int watchers = watches.interestedWatchCount(info);
        if (watchers < WATCHES_PER_SEAT) {
            return WorkEstimate.ONE_SEAT;
        }
        int finalSeats = (int) Math.ceil(watchers / WATCHES_PER_SEAT);
        // The events' work, reshaped narrower and longer when capped: the same seat-seconds either way.
        double finalWork = finalSeats * EVENT_ADDITIONAL_DURATION.toNanos() / 1e9;
        finalSeats = Math.min(finalSeats, maxSeats);
        return new WorkEstimate(1, finalSeats, Duration.ofNanos(Math.round(finalWork / finalSeats * 1e9)));
    }

    private static WorkEstimate seats(int n) {
        return n == 1 ? WorkEstimate.ONE_SEAT : new WorkEstimate(n, 0, Duration.ZERO);
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }

    /**
     * kube's maximum seats a request of a queuing level may take: 15% of its nominal limit, at most
     * its nominal limit divided by the hand size, at least 1 (10 with kube's default 600 seats).
     */
    static int maxSeats(int nominalLimit, int handSize) {
        return (int) Math.max(1, Math.min(Math.ceil(nominalLimit * 0.15), (double) (nominalLimit / handSize)));
    }
}
