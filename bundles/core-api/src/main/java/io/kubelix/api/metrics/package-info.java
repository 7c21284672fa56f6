/**
 * Metrics a plugin contributes to the server's {@code /metrics}: counters, gauges and histograms
 * with labels, made through the {@link io.kubelix.api.metrics.MetricsRegistry} service, without
 * any metrics library's types.
 */
@Export
@Version("1.0.0")
package io.kubelix.api.metrics;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
