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
        nominalLimit.remove(priorityLevel);
    }
}
