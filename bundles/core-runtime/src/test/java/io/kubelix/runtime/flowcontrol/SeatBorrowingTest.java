package io.kubelix.runtime.flowcontrol;

import io.kubelix.runtime.metrics.FlowControlMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lending and borrowing of seats between priority levels, on a fake clock. */
class SeatBorrowingTest {
    private final FakeEventClock clock = new FakeEventClock();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PriorityAndFairness apf = new PriorityAndFairness(600, Duration.ofSeconds(15),
            new FlowControlMetrics(registry), r -> WorkEstimator.NOT_FOUND, clock);

    @Test
    void allocationsFollowTargetsWithinBounds() {
        assertArrayEquals(new double[]{2, 6}, ConcurrencyAllocation.compute(8, List.of(
                new ConcurrencyAllocation.Item(0, 10, 1), new ConcurrencyAllocation.Item(0, 10, 3))).allocations(), 1e-6);
        assertArrayEquals(new double[]{2, 6}, ConcurrencyAllocation.compute(8, List.of(
                new ConcurrencyAllocation.Item(0, 2, 3), new ConcurrencyAllocation.Item(0, 10, 1))).allocations(), 1e-6,
                "an upper bound gives the rest to the other");
        ConcurrencyAllocation.Result lower = ConcurrencyAllocation.compute(8, List.of(
                new ConcurrencyAllocation.Item(5, 10, 5), new ConcurrencyAllocation.Item(0, 10, 5)));
        assertArrayEquals(new double[]{5, 3}, lower.allocations(), 1e-6);
        assertEquals(0.6, lower.fairFrac(), 1e-6);
    }

    @Test
    void idleLevelsLendAndABusyOneBorrows() {
        // Nominal seats of 600 by shares (245 in all): workload-low 245, global-default 49, system 74.
        Map<String, Integer> idle = apf.currentLimits();
        int sum = idle.values().stream().mapToInt(Integer::intValue).sum();
        assertTrue(Math.abs(sum - 606) <= 8, "the nominal seats, rounded up per level, are shared: " + idle);
        assertTrue(idle.get("workload-low") >= 245 - 221, "never below its nominal less its lendable 90% (round(220.5)): " + idle);
        assertEquals(0, idle.get("exempt"));

        // global-default asks for far more than its 49 seats, and keeps asking for 10 seconds.
        QueueSet global = apf.levels().stream().filter(l -> l.name().equals("global-default")).findFirst()
                .orElseThrow().queues();
        List<QueueSet.Outcome> held = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            held.add(global.acquire("global-default", "u" + i, null, WorkEstimate.ONE_SEAT, Duration.ofMinutes(5),
                    Runnable::run, held::add));
        }
        clock.advance(SeatBorrowing.PERIOD);
        Map<String, Integer> busy = apf.currentLimits();
        assertTrue(busy.get("global-default") > 49 + 100, "it borrows what the idle levels lend: " + busy);
        assertTrue(busy.get("global-default") <= 49 + 600, "at most its nominal seats plus the server's limit");
        assertEquals(24, busy.get("workload-low"), "the idle lender is down to its lower bound");
        assertEquals(busy.get("global-default"), (int) gauge("apiserver_flowcontrol_current_limit_seats", "global-default"));
        assertEquals(400, gauge("apiserver_flowcontrol_demand_seats_high_watermark", "global-default"), 1e-9);
        assertEquals(24, gauge("apiserver_flowcontrol_lower_limit_seats", "global-default"), 1e-9,
                "49 less its lendable 50%, round(24.5) = 25");
        assertEquals(49 + 600, gauge("apiserver_flowcontrol_upper_limit_seats", "global-default"), 1e-9,
                "no borrowingLimitPercent: up to the server's limit");
        int executing = global.state().executing();
        assertEquals(Math.min(400, busy.get("global-default")), executing, "the borrowed seats are used at once");

        // Once the demand is gone, its seats go back to the others as its smoothed demand decays
        // (a half-life of 5 minutes): most of them within 20 minutes.
        while (global.state().executing() > 0) {
            new ArrayList<>(held).stream().filter(o -> o.seat() != null).forEach(o -> o.seat().release());
        }
        clock.advance(SeatBorrowing.PERIOD.multipliedBy(120));
        assertTrue(apf.currentLimits().get("global-default") < 100, apf.currentLimits().toString());
    }

    @Test
    void aBorrowingLimitCapsWhatALevelMayBorrow() {
        List<com.fasterxml.jackson.databind.node.ObjectNode> levels = new ArrayList<>(BootstrapConfiguration.priorityLevels());
        levels.replaceAll(pl -> {
            if (pl.path("metadata").path("name").asText().equals("global-default")) {
                pl = pl.deepCopy();
                pl.with("spec").with("limited").put("borrowingLimitPercent", 10);
            }
            return pl;
        });
        apf.apply(BootstrapConfiguration.flowSchemas(), levels);
        QueueSet global = apf.levels().stream().filter(l -> l.name().equals("global-default")).findFirst()
                .orElseThrow().queues();
        for (int i = 0; i < 400; i++) {
            global.acquire("global-default", "u" + i, null, WorkEstimate.ONE_SEAT, Duration.ofMinutes(5),
                    Runnable::run, o -> { });
        }
        clock.advance(SeatBorrowing.PERIOD);
        assertEquals(49 + 5, apf.currentLimits().get("global-default"), "49 plus round(4.9)");
    }

    private double gauge(String name, String level) {
        return registry.scrape().stream().filter(m -> m.getMetadata().getName().equals(name))
                .flatMap(m -> ((GaugeSnapshot) m).getDataPoints().stream())
                .filter(p -> level.equals(p.getLabels().get("priority_level")))
                .mapToDouble(GaugeSnapshot.GaugeDataPointSnapshot::getValue).findFirst().orElse(Double.NaN);
    }
}
