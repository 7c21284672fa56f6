package io.kubelix.api.metrics;

import org.osgi.annotation.versioning.ProviderType;

/** A counter of a {@link MetricsRegistry}. Label values are given in the order of its label names. */
@ProviderType
public interface Counter {

    /** Adds {@code amount} (not negative) to the series with these label values. */
    void add(double amount, String... labelValues);

    /** Adds one. */
    default void inc(String... labelValues) {
        add(1, labelValues);
    }
}
