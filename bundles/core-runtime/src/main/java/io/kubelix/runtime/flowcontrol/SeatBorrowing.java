package io.kubelix.runtime.flowcontrol;

import io.kubelix.runtime.metrics.FlowControlMetrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's seat borrowing between priority levels (the config controller's updateBorrowing). Each
 * level has its nominal seats; it may lend {@code lendablePercent} of them and borrow up to
 * {@code borrowingLimitPercent} of them more (without it, up to the server's limit). Every 10
 * seconds, and whenever the configuration changes, each level's seat demand over the period (seats
 * in use plus seats asked for by waiting requests) is read and smoothed (half-life 5 minutes), and
 * the sum of the nominal seats is shared again: an Exempt level first keeps what it used, then the
 * Limited levels get seats in proportion to their smoothed demand, each at least what it used (up
 * to its nominal seats) and its nominal seats less what it may lend, at most its upper bound.
 */
final class SeatBorrowing {
    static final Duration PERIOD = Duration.ofSeconds(10);
    /** The decay of the smoothed demand a period: a half-life of 5 minutes. */
    static final double SMOOTHING = 0.977;

    private final FlowControlMetrics metrics;
    /** Guarded by this. */
    private final Map<String, LevelSeats> levels = new LinkedHashMap<>();
    private int nominalSum;
    private double fairFrac;

    /** A level's configuration as borrowing reads it; a percentage is null when not set. */
    record LevelConfig(String name, QueueSet queues, boolean exempt, int nominal, Integer lendablePercent,
                       Integer borrowingLimitPercent) {
    }

    /** A level's bounds, its demand statistics and its seats now. */
    static final class LevelSeats {
        final String name;
        QueueSet queues;
        boolean exempt;
        int nominal;
        int min;
        int max;
        int current;
        int highWatermark;
        double average;
        double stdDev;
        double smoothed;

        LevelSeats(String name) {
            this.name = name;
        }
    }

    SeatBorrowing(FlowControlMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Takes the levels of a new configuration and shares the seats again at once; a level kept
     * keeps its demand statistics, a new one starts with its nominal seats less half its lendable ones.
     */
    synchronized void configure(List<LevelConfig> configs, int serverLimit) {
        Map<String, LevelSeats> kept = new LinkedHashMap<>();
        int sum = 0;
        for (LevelConfig c : configs) {
            LevelSeats l = levels.get(c.name());
            int lendable = c.lendablePercent() == null ? 0 : (int) Math.round(c.nominal() * c.lendablePercent() / 100.0);
            int borrowing = c.borrowingLimitPercent() == null ? serverLimit
                    : (int) Math.round(c.nominal() * c.borrowingLimitPercent() / 100.0);
            if (l == null || l.queues != c.queues()) {
                l = new LevelSeats(c.name());
                l.current = c.nominal() - lendable / 2;
            }
            l.queues = c.queues();
            l.exempt = c.exempt();
            l.nominal = c.nominal();
            l.min = c.nominal() - lendable;
            l.max = c.nominal() + borrowing;
            metrics.limits(c.name(), l.min, l.max);
            kept.put(c.name(), l);
            sum += c.nominal();
        }
        levels.clear();
        levels.putAll(kept);
        nominalSum = sum;
        update();
    }

    /** Reads each level's demand over the period and sets each level's seats for the next. */
    synchronized void update() {
        List<LevelSeats> limited = new ArrayList<>();
        List<ConcurrencyAllocation.Item> items = new ArrayList<>();
        Map<LevelSeats, Integer> floors = new LinkedHashMap<>();
        int remaining = nominalSum;
        int minSum = 0;
        int floorSum = 0;
        for (LevelSeats l : levels.values()) {
            SeatDemandIntegrator.Results r = l.queues.resetSeatDemand();
            l.highWatermark = (int) Math.round(r.max());
            if (r.seconds() > 0) {
                l.average = r.average();
                l.stdDev = Double.isNaN(r.deviation()) ? 0 : r.deviation();
                double envelope = l.average + l.stdDev;
                l.smoothed = Math.max(envelope, SMOOTHING * l.smoothed + (1 - SMOOTHING) * envelope);
            }
            if (l.exempt) {
                // What an Exempt level used is taken off the top; it is never limited by it.
                int floor = Math.max(l.min, l.highWatermark);
                floors.put(l, floor);
                remaining -= floor;
            } else {
                int floor = Math.max(l.min, Math.min(l.nominal, l.highWatermark));
                floors.put(l, floor);
                limited.add(l);
                items.add(new ConcurrencyAllocation.Item(floor, l.max, Math.max(floor, l.smoothed)));
                minSum += l.min;
                floorSum += floor;
            }
        }
        double[] allocations = null;
        double shareFrac = 0;
        fairFrac = 0;
        if (remaining > minSum && remaining <= floorSum) {
            shareFrac = (double) (remaining - minSum) / (floorSum - minSum);
        } else if (remaining > floorSum) {
            try {
                ConcurrencyAllocation.Result r = ConcurrencyAllocation.compute(nominalSum, items);
                allocations = r.allocations();
                fairFrac = r.fairFrac();
            } catch (IllegalArgumentException e) {
                // As kube's backstop: the levels keep their seats until the next adjustment.
                allocations = limited.stream().mapToDouble(l -> l.current).toArray();
            }
        }
        metrics.fairFrac(fairFrac);
        for (LevelSeats l : levels.values()) {
            int floor = floors.get(l);
            int current;
            if (l.exempt) {
                current = floor;
            } else if (remaining <= minSum) {
                current = l.min;
            } else if (remaining <= floorSum) {
                current = l.min + (int) Math.round((floor - l.min) * shareFrac);
            } else {
                current = (int) Math.round(allocations[limited.indexOf(l)]);
            }
            l.current = current;
            double target = l.exempt ? floor : Math.max(floor, l.smoothed);
            metrics.adjusted(l.name, l.highWatermark, l.average, l.stdDev, l.smoothed, target, current);
            l.queues.setConcurrencyLimit(current);
        }
    }

    /** The levels' seats now, by name. */
    synchronized Map<String, Integer> currentLimits() {
        Map<String, Integer> out = new LinkedHashMap<>();
        levels.forEach((name, l) -> out.put(name, l.current));
        return out;
    }

    synchronized double fairFrac() {
        return fairFrac;
    }
}
