package io.kubelix.runtime.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The API Priority and Fairness metrics kube-apiserver exposes most
 * (k8s.io/apiserver's {@code util/flowcontrol/metrics}), with kube's names, labels and buckets.
 */
public final class FlowControlMetrics {
    private final Counter rejected;
    private final Counter dispatched;
    private final Gauge inQueue;
    private final Gauge executing;
    private final Histogram waitDuration;
    private final Gauge nominalLimit;
    private final Gauge lowerLimit;
    private final Gauge upperLimit;
    private final Gauge currentLimit;
    private final Gauge demandHighWatermark;
    private final Gauge demandAverage;
    private final Gauge demandStdev;
    private final Gauge demandSmoothed;
    private final Gauge targetSeats;
    private final Gauge seatFairFrac;

    /** Registers the metrics in {@code registry} (the server's, or a test's own). */
    public FlowControlMetrics(PrometheusRegistry registry) {
        rejected = Counter.builder().name("apiserver_flowcontrol_rejected_requests")
                .help("Number of requests rejected by API Priority and Fairness subsystem")
                .labelNames("flow_schema", "priority_level", "reason").register(registry);
        dispatched = Counter.builder().name("apiserver_flowcontrol_dispatched_requests")
                .help("Number of requests executed by API Priority and Fairness subsystem")
                .labelNames("flow_schema", "priority_level").register(registry);
        inQueue = Gauge.builder().name("apiserver_flowcontrol_current_inqueue_requests")
                .help("Number of requests currently pending in queues of the API Priority and Fairness subsystem")
                .labelNames("flow_schema", "priority_level").register(registry);
        executing = Gauge.builder().name("apiserver_flowcontrol_current_executing_requests")
                .help("Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem")
                .labelNames("flow_schema", "priority_level").register(registry);
        waitDuration = Histogram.builder().name("apiserver_flowcontrol_request_wait_duration_seconds")
                .help("Length of time a request spent waiting in its queue")
                .classicOnly().classicUpperBounds(0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30)
                .labelNames("flow_schema", "priority_level", "execute").register(registry);
        nominalLimit = Gauge.builder().name("apiserver_flowcontrol_nominal_limit_seats")
                .help("Nominal number of execution seats configured for each priority level")
                .labelNames("priority_level").register(registry);
        lowerLimit = levelGauge(registry, "apiserver_flowcontrol_lower_limit_seats",
                "Configured lower bound on number of execution seats available to each priority level");
        upperLimit = levelGauge(registry, "apiserver_flowcontrol_upper_limit_seats",
                "Configured upper bound on number of execution seats available to each priority level");
        currentLimit = levelGauge(registry, "apiserver_flowcontrol_current_limit_seats",
                "current derived number of execution seats available to each priority level");
        demandHighWatermark = levelGauge(registry, "apiserver_flowcontrol_demand_seats_high_watermark",
                "High watermark, over last adjustment period, of demand_seats");
        demandAverage = levelGauge(registry, "apiserver_flowcontrol_demand_seats_average",
                "Time-weighted average, over last adjustment period, of demand_seats");
        demandStdev = levelGauge(registry, "apiserver_flowcontrol_demand_seats_stdev",
                "Time-weighted standard deviation, over last adjustment period, of demand_seats");
        demandSmoothed = levelGauge(registry, "apiserver_flowcontrol_demand_seats_smoothed", "Smoothed seat demands");
        targetSeats = levelGauge(registry, "apiserver_flowcontrol_target_seats", "Seat allocation targets");
        seatFairFrac = Gauge.builder().name("apiserver_flowcontrol_seat_fair_frac")
                .help("Fair fraction of server's concurrency to allocate to each priority level that can use it")
                .register(registry);
    }

    private static Gauge levelGauge(PrometheusRegistry registry, String name, String help) {
        return Gauge.builder().name(name).help(help).labelNames("priority_level").register(registry);
    }

    /** A level's configured bounds: its nominal seats less what it may lend, plus what it may borrow. */
    public void limits(String priorityLevel, int lower, int upper) {
        lowerLimit.labelValues(priorityLevel).set(lower);
        upperLimit.labelValues(priorityLevel).set(upper);
    }

    /** A seat borrowing adjustment of a level: its seat demand over the period, target and new limit. */
    public void adjusted(String priorityLevel, double highWatermark, double average, double stdev, double smoothed,
                         double target, int current) {
        demandHighWatermark.labelValues(priorityLevel).set(highWatermark);
        demandAverage.labelValues(priorityLevel).set(average);
        demandStdev.labelValues(priorityLevel).set(stdev);
        demandSmoothed.labelValues(priorityLevel).set(smoothed);
        targetSeats.labelValues(priorityLevel).set(target);
        currentLimit.labelValues(priorityLevel).set(current);
    }

    public void fairFrac(double frac) {
        seatFairFrac.set(frac);
    }

    /** A request refused: {@code reason} is {@code queue-full}, {@code concurrency-limit}, {@code time-out} or {@code cancelled}. */
    public void rejected(String flowSchema, String priorityLevel, String reason) {
        rejected.labelValues(flowSchema, priorityLevel, reason).inc();
    }

    public void dispatched(String flowSchema, String priorityLevel) {
        dispatched.labelValues(flowSchema, priorityLevel).inc();
    }

    public void inQueue(String flowSchema, String priorityLevel, int delta) {
        inQueue.labelValues(flowSchema, priorityLevel).inc(delta);
    }

    public void executing(String flowSchema, String priorityLevel, int delta) {
        executing.labelValues(flowSchema, priorityLevel).inc(delta);
    }

    /** How long a request waited, and whether it then ran. */
    public void waited(String flowSchema, String priorityLevel, boolean execute, double seconds) {
        waitDuration.labelValues(flowSchema, priorityLevel, Boolean.toString(execute)).observe(seconds);
    }

    public void nominalLimit(String priorityLevel, int seats) {
        nominalLimit.labelValues(priorityLevel).set(seats);
    }

    /** A priority level gone from the configuration leaves the limit gauge. */
    public void levelRemoved(String priorityLevel) {
        for (Gauge g : new Gauge[]{nominalLimit, lowerLimit, upperLimit, currentLimit, demandHighWatermark, demandAverage,
                demandStdev, demandSmoothed, targetSeats}) {
            g.remove(priorityLevel);
        }
    }
}
