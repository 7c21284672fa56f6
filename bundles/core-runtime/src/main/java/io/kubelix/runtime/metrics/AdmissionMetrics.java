package io.kubelix.runtime.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Summary;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * kube-apiserver's admission latencies (k8s.io/apiserver's admission/metrics), with its names,
 * labels and buckets: {@code apiserver_admission_step_admission_duration_seconds} (and its
 * {@code _summary}) for the whole mutating ({@code type="admit"}) or validating
 * ({@code type="validate"}) step of a request, and
 * {@code apiserver_admission_controller_admission_duration_seconds} for each plugin by
 * {@code name}; both by {@code operation} and whether the step or plugin {@code rejected} it.
 * A plugin that does not handle the operation is not timed, as kube's chain skips it.
 */
public final class AdmissionMetrics {
    /** {@code type} of the mutating step. */
    public static final String ADMIT = "admit";
    /** {@code type} of the validating step. */
    public static final String VALIDATE = "validate";

    private final Histogram step;
    private final Summary stepSummary;
    private final Histogram controller;
    /**
     * The data points a write observes, by {@link #slot} (and plugin name): the client's
     * {@code labelValues} builds and hashes a list of the labels on every call, and a write
     * observes a dozen plugins or more. A point looked up twice by racing threads is the same point.
     */
    private static final int SLOTS = 2 * 4 * 2;
    private final AtomicReferenceArray<DistributionDataPoint> stepPoints = new AtomicReferenceArray<>(SLOTS);
    private final AtomicReferenceArray<DistributionDataPoint> stepSummaryPoints = new AtomicReferenceArray<>(SLOTS);
    private final Map<String, AtomicReferenceArray<DistributionDataPoint>> controllerPoints = new ConcurrentHashMap<>();

    AdmissionMetrics(ServerMetrics metrics) {
        double[] buckets = {0.005, 0.025, 0.1, 0.5, 1.0, 2.5};
        step = Histogram.builder().name("apiserver_admission_step_admission_duration_seconds")
                .help("Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).")
                .classicOnly().classicUpperBounds(buckets)
                .labelNames("type", "operation", "rejected")
                .register(metrics.registry());
        // kube keeps five hours of observations in its summary's sliding window.
        stepSummary = Summary.builder().name("apiserver_admission_step_admission_duration_seconds_summary")
                .help("Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).")
                .quantile(0.5, 0.05).quantile(0.9, 0.01).quantile(0.99, 0.001)
                .maxAgeSeconds(TimeUnit.HOURS.toSeconds(5))
                .labelNames("type", "operation", "rejected")
                .register(metrics.registry());
        controller = Histogram.builder().name("apiserver_admission_controller_admission_duration_seconds")
                .help("Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).")
                .classicOnly().classicUpperBounds(buckets)
                .labelNames("name", "type", "operation", "rejected")
                .register(metrics.registry());
    }

    /** Records one step ({@link #ADMIT} or {@link #VALIDATE}) of {@code nanos}. */
    public void step(String type, String operation, boolean rejected, long nanos) {
        double seconds = nanos / 1e9;
        int slot = slot(type, operation, rejected);
        DistributionDataPoint h = slot < 0 ? null : stepPoints.get(slot);
        DistributionDataPoint s = slot < 0 ? null : stepSummaryPoints.get(slot);
        if (h == null || s == null) {
            String r = Boolean.toString(rejected);
            h = step.labelValues(type, operation, r);
            s = stepSummary.labelValues(type, operation, r);
            if (slot >= 0) {
                stepPoints.set(slot, h);
                stepSummaryPoints.set(slot, s);
            }
        }
        h.observe(seconds);
        s.observe(seconds);
    }

    /** Records one plugin's part of a step. */
    public void controller(String name, String type, String operation, boolean rejected, long nanos) {
        int slot = slot(type, operation, rejected);
        AtomicReferenceArray<DistributionDataPoint> slots = slot < 0 ? null
                : controllerPoints.computeIfAbsent(name, n -> new AtomicReferenceArray<>(SLOTS));
        DistributionDataPoint p = slots == null ? null : slots.get(slot);
        if (p == null) {
            p = controller.labelValues(name, type, operation, Boolean.toString(rejected));
            if (slots != null) {
                slots.set(slot, p);
            }
        }
        p.observe(nanos / 1e9);
    }

    /** The index of a label combination among a metric's cached points, or -1 outside kube's types and operations. */
    private static int slot(String type, String operation, boolean rejected) {
        int t = ADMIT.equals(type) ? 0 : VALIDATE.equals(type) ? 1 : -1;
        int o = switch (operation) {
            case "CREATE" -> 0;
            case "UPDATE" -> 1;
            case "DELETE" -> 2;
            case "CONNECT" -> 3;
            default -> -1;
        };
        return t < 0 || o < 0 ? -1 : (t * 4 + o) * 2 + (rejected ? 1 : 0);
    }
}
