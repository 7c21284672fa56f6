package io.kubelix.api.metrics;

import org.osgi.annotation.versioning.ProviderType;

/** A histogram of a {@link MetricsRegistry}. Label values are given in the order of its label names. */
@ProviderType
public interface Histogram {

    /** Records one observation (seconds for durations, bytes for sizes). */
    void observe(double value, String... labelValues);
}
