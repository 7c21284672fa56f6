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
    private final Gauge inQueueSeats;
    private final Gauge executingSeats;
    private final Histogram queueLength;
    private final Histogram execution;
    private final Histogram estimatedSeats;
    private final Counter noAccommodation;
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
        inQueueSeats = Gauge.builder().name("apiserver_flowcontrol_current_inqueue_seats")
                .help("Number of seats currently pending in queues of the API Priority and Fairness subsystem")
                .labelNames("flow_schema", "priority_level").register(registry);
        executingSeats = Gauge.builder().name("apiserver_flowcontrol_current_executing_seats")
                .help("Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem")
                .labelNames("flow_schema", "priority_level").register(registry);
        queueLength = Histogram.builder().name("apiserver_flowcontrol_request_queue_length_after_enqueue")
                .help("Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued")
                .classicOnly().classicUpperBounds(0, 10, 25, 50, 100, 250, 500, 1000)
                .labelNames("flow_schema", "priority_level").register(registry);
        execution = Histogram.builder().name("apiserver_flowcontrol_request_execution_seconds")
                .help("Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem")
                .classicOnly().classicUpperBounds(0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30)
                .labelNames("flow_schema", "priority_level", "type").register(registry);
        estimatedSeats = Histogram.builder().name("apiserver_flowcontrol_work_estimated_seats")
                .help("Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness")
                .classicOnly().classicUpperBounds(1, 2, 4, 10)
                .labelNames("flow_schema", "priority_level").register(registry);
        noAccommodation = Counter.builder().name("apiserver_flowcontrol_request_dispatch_no_accommodation")
                .help("Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats")
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

    /** Requests, and the seats they ask for, joining ({@code delta} > 0) or leaving a queue. */
    public void inQueue(String flowSchema, String priorityLevel, int delta, int seatsDelta) {
        inQueue.labelValues(flowSchema, priorityLevel).inc(delta);
        inQueueSeats.labelValues(flowSchema, priorityLevel).inc(seatsDelta);
    }

    /** Seats taken ({@code delta} > 0) or given back, which for a write with watchers is after it has answered. */
    public void executingSeats(String flowSchema, String priorityLevel, int delta) {
        executingSeats.labelValues(flowSchema, priorityLevel).inc(delta);
    }

    /** The length of a request's queue once it has joined it. */
    public void queueLength(String flowSchema, String priorityLevel, int length) {
        queueLength.labelValues(flowSchema, priorityLevel).observe(length);
    }

    /** How long a request ran in its seats: a watch until its stream started, kube's {@code type} "watch". */
    public void executed(String flowSchema, String priorityLevel, boolean watch, double seconds) {
        execution.labelValues(flowSchema, priorityLevel, watch ? "watch" : "regular").observe(seconds);
    }

    /** The seats the work estimator asked for a request. */
    public void estimated(String flowSchema, String priorityLevel, int seats) {
        estimatedSeats.labelValues(flowSchema, priorityLevel).observe(seats);
    }

    /** The request whose turn it was did not fit in the free seats. */
    public void noAccommodation(String flowSchema, String priorityLevel) {
        noAccommodation.labelValues(flowSchema, priorityLevel).inc();
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
