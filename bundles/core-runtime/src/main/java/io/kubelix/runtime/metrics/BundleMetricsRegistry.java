package io.kubelix.runtime.metrics;

import io.kubelix.api.metrics.Counter;
import io.kubelix.api.metrics.Gauge;
import io.kubelix.api.metrics.Histogram;
import io.kubelix.api.metrics.MetricsRegistry;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ServiceScope;

import java.util.List;

/**
 * The {@link MetricsRegistry} service as one bundle sees it: the metrics it asks for are released
 * when it releases the service (it stops, or is updated), and leave {@code /metrics} unless another
 * bundle (its new revision) holds them too.
 */
@Component(service = MetricsRegistry.class, scope = ServiceScope.BUNDLE)
public final class BundleMetricsRegistry implements MetricsRegistry {
    private final PluginMetrics metrics;

    @Activate
    public BundleMetricsRegistry(@Reference PluginMetrics metrics) {
        this.metrics = metrics;
    }

    @Deactivate
    void deactivate() {
        metrics.release(this);
    }

    @Override
    public Counter counter(String name, String help, List<String> labelNames) {
        return metrics.counter(this, name, help, labelNames);
    }

    @Override
    public Gauge gauge(String name, String help, List<String> labelNames) {
        return metrics.gauge(this, name, help, labelNames);
    }

    @Override
    public Histogram histogram(String name, String help, List<Double> buckets, List<String> labelNames) {
        return metrics.histogram(this, name, help, buckets, labelNames);
    }
}
