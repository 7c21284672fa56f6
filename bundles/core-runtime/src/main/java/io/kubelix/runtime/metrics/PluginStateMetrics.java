package io.kubelix.runtime.metrics;

import io.kubelix.runtime.plugins.PluginInventory;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.Collector;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code kubelix_plugins{state}}: the bundles installed from {@code plugins/} in each OSGi state
 * ({@code Active}, {@code Resolved}, {@code Installed} for one that cannot resolve...), read when
 * scraped. A plugin that does not come up shows as a count outside {@code Active}.
 */
@Component(immediate = true, service = {})
public final class PluginStateMetrics {
    private final ServerMetrics metrics;
    private final Collector plugins;

    @Activate
    public PluginStateMetrics(@Reference ServerMetrics metrics, @Reference PluginInventory inventory) {
        this.metrics = metrics;
        this.plugins = GaugeWithCallback.builder().name("kubelix_plugins")
                .help("Plugin bundles (installed from plugins/) by OSGi state.")
                .labelNames("state")
                .callback(cb -> inventory.pluginStates().forEach((state, n) -> cb.call(n, state)))
                .build();
        metrics.register(plugins);
    }

    @Deactivate
    void deactivate() {
        metrics.unregister(plugins);
    }
}
