package io.kubelix.api.metrics;

import org.osgi.annotation.versioning.ProviderType;

/** A gauge of a {@link MetricsRegistry}. Label values are given in the order of its label names. */
@ProviderType
public interface Gauge {

    void set(double value, String... labelValues);

    /** Adds {@code delta}, which may be negative. */
    void add(double delta, String... labelValues);
}
