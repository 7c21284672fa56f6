package io.kubelix.api.metrics;

import org.osgi.annotation.versioning.ProviderType;

import java.util.List;

/**
 * The server's metrics, as one bundle sees them: a service core-runtime registers, which a plugin
 * asks for a metric by name. Names and labels follow Prometheus' rules ({@code [a-zA-Z_:][a-zA-Z0-9_:]*});
 * a counter's name has no {@code _total} suffix here, the exposition adds it.
 *
 * <p>A metric outlives the plugin revision that asked for it: asking again for the same name with the
 * same type, labels (and buckets) returns the same metric, so a plugin update keeps its counts. A metric
 * leaves {@code /metrics} when the last bundle that asked for it stops. Asking for a name that exists
 * with another type, other labels or other buckets throws {@link IllegalArgumentException}.
 */
@ProviderType
public interface MetricsRegistry {

    /** A monotonic counter; exposed as {@code <name>_total}. */
    Counter counter(String name, String help, List<String> labelNames);

    /** A value that goes up and down. */
    Gauge gauge(String name, String help, List<String> labelNames);

    /** A histogram with these upper bounds (ascending; {@code +Inf} is added). */
    Histogram histogram(String name, String help, List<Double> buckets, List<String> labelNames);

    /** {@code count} buckets from {@code start}, each {@code factor} times the previous, as Prometheus' ExponentialBuckets. */
    static List<Double> exponentialBuckets(double start, double factor, int count) {
        Double[] b = new Double[count];
        double v = start;
        for (int i = 0; i < count; i++) {
            b[i] = v;
            v *= factor;
        }
        return List.of(b);
    }
}
