package io.kubelix.runtime.flowcontrol;

import io.kubelix.api.request.RequestInfo;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The seats of kube's work estimator, case by case as its width tests state them. */
class WorkEstimatorTest {
    private final Map<String, Long> counts = new HashMap<>(Map.of("pods", 799L, "deployments.apps", 42L,
            "events", WorkEstimator.STALE));
    private final WatchTracker watches = new WatchTracker();
    private final WorkEstimator estimator = new WorkEstimator(
            r -> counts.getOrDefault(r, WorkEstimator.NOT_FOUND), watches);

    private static RequestInfo info(String verb, String group, String namespace, String resource, String name) {
        return new RequestInfo(true, "/api", verb, "api", group, "v1", namespace, resource, "", name, List.of());
    }

    private WorkEstimate estimate(RequestInfo info, String... query) {
        Map<String, String> q = new HashMap<>();
        for (int i = 0; i < query.length; i += 2) {
            q.put(query[i], query[i + 1]);
        }
        return estimator.estimate(info, q::get, 0);
    }

    @Test
    void listsCostASeatPerHundredObjects() {
        RequestInfo pods = info("list", "", "", "pods", "");
        assertEquals(8, estimate(pods).initialSeats(), "served from the cache: every stored object");
        assertEquals(8, estimate(pods, "limit", "500", "resourceVersion", "0").initialSeats());
        assertEquals(10, estimate(pods, "limit", "500", "continue", "x").initialSeats(),
                "from the storage: twice the 500 returned, capped at 10");
        assertEquals(2, estimate(pods, "limit", "60", "continue", "x").initialSeats(), "twice 60 objects");
        assertEquals(9, estimate(pods, "limit", "50", "continue", "x", "labelSelector", "a=b").initialSeats(),
                "a selector goes through every stored object and returns the limit");
        assertEquals(8, estimate(pods, "limit", "50", "resourceVersion", "5", "resourceVersionMatch", "NotOlderThan")
                .initialSeats());
        assertEquals(2, estimate(pods, "limit", "60", "resourceVersion", "5").initialSeats(), "a legacy exact match");
        assertEquals(1, estimate(info("list", "apps", "default", "deployments", "")).initialSeats());
        assertEquals(1, estimate(info("list", "", "default", "pods", "p")).initialSeats(), "a LIST by name");
        assertEquals(1, estimate(info("list", "example.com", "", "widgets", "")).initialSeats(),
                "not counted: perhaps aggregated");
        assertEquals(10, estimate(info("list", "", "", "events", "")).initialSeats(), "a stale count: the maximum");
        assertEquals(10, estimate(pods, "limit", "x").initialSeats(), "options that do not parse: the maximum");
        assertEquals(3, estimator.estimate(pods, q -> null, 3).initialSeats(), "the level's maximum");
    }

    @Test
    void watchesCostOneSeatUnlessTheyAskForTheirInitialEvents() {
        RequestInfo watch = info("watch", "", "", "pods", "");
        assertEquals(WorkEstimate.ONE_SEAT, estimate(watch));
        assertEquals(8, estimate(watch, "sendInitialEvents", "true", "continue", "x").initialSeats());
        assertEquals(WorkEstimate.ONE_SEAT, estimate(info("get", "", "default", "pods", "p")));
    }

    @Test
    void writesReachingManyWatchersKeepSeatsAfterTheyAnswer() {
        RequestInfo update = info("update", "", "default", "configmaps", "c");
        List<Runnable> forget = new java.util.ArrayList<>();
        for (int i = 0; i < 9; i++) {
            forget.add(watches.register(info("watch", "", "", "configmaps", ""), null));
        }
        watches.register(info("watch", "", "other", "configmaps", ""), null);
        watches.register(info("watch", "", "", "pods", ""), "spec.nodeName=n1");
        assertEquals(WorkEstimate.ONE_SEAT, estimate(update), "9 interested watchers");

        forget.add(watches.register(info("watch", "", "default", "configmaps", ""), null));
        forget.add(watches.register(info("watch", "", "default", "configmaps", "c"), null));
        assertEquals(11, watches.interestedWatchCount(update));
        assertEquals(new WorkEstimate(1, 2, Duration.ofMillis(5)), estimate(update));
        assertEquals(0, watches.interestedWatchCount(info("update", "", "", "pods", "p")), "a kubelet's watch is indexed");
        assertEquals(0, watches.interestedWatchCount(info("get", "", "default", "configmaps", "c")), "a read");

        for (int i = 0; i < 95; i++) {
            watches.register(info("watch", "", "", "configmaps", ""), null);
        }
        WorkEstimate capped = estimator.estimate(update, q -> null, 4);
        assertEquals(new WorkEstimate(1, 4, Duration.ofNanos(13_750_000)), capped,
                "11 seats for 5 ms reshaped into 4 seats for 13.75 ms");
        forget.forEach(Runnable::run);
        forget.forEach(Runnable::run);
        assertEquals(95, watches.interestedWatchCount(update));
        assertEquals(WorkEstimate.ONE_SEAT, estimate(new RequestInfo(true, "/api", "create", "api", "", "v1", "default",
                "serviceaccounts", "token", "sa", List.of())), "a token request writes nothing");
    }

    @Test
    void maxSeatsFollowTheNominalLimit() {
        assertEquals(10, WorkEstimator.maxSeats(62, 6), "ceil(9.3) = 10 and 62 / 6 = 10");
        assertEquals(2, WorkEstimator.maxSeats(13, 6));
        assertEquals(1, WorkEstimator.maxSeats(3, 6));
    }
}
