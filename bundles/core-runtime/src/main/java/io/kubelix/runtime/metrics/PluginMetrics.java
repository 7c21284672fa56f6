package io.kubelix.runtime.metrics;

import io.kubelix.api.metrics.Counter;
import io.kubelix.api.metrics.Gauge;
import io.kubelix.api.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Metric;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The metrics plugins asked for through {@code MetricsRegistry}, by name, shared by every bundle
 * that asks for the same one (a plugin's old and new revision during an update), and registered in
 * the server's registry while at least one bundle holds them. A metric nobody holds keeps its values
 * for the next bundle asking for it, so a plugin update does not reset its counters.
 */
@Component(service = PluginMetrics.class)
public final class PluginMetrics {
    private final ServerMetrics server;
    private final Map<String, Entry> byName = new HashMap<>();

    private record Definition(String type, List<String> labelNames, List<Double> buckets) {
    }

    private static final class Entry {
        final Definition definition;
        final Metric metric;
        final Object facade;
        final Set<Object> holders = new HashSet<>();

        Entry(Definition definition, Metric metric, Object facade) {
            this.definition = definition;
            this.metric = metric;
            this.facade = facade;
        }
    }

    @Activate
    public PluginMetrics(@Reference ServerMetrics server) {
        this.server = server;
    }

    Counter counter(Object holder, String name, String help, List<String> labels) {
        return (Counter) get(holder, name, new Definition("counter", List.copyOf(labels), List.of()), () -> {
            var c = io.prometheus.metrics.core.metrics.Counter.builder().name(name).help(help)
                    .labelNames(labels.toArray(String[]::new)).build();
            return new Entry(null, c, (Counter) (amount, values) -> c.labelValues(values).inc(amount));
        });
    }

    Gauge gauge(Object holder, String name, String help, List<String> labels) {
        return (Gauge) get(holder, name, new Definition("gauge", List.copyOf(labels), List.of()), () -> {
            var g = io.prometheus.metrics.core.metrics.Gauge.builder().name(name).help(help)
                    .labelNames(labels.toArray(String[]::new)).build();
            return new Entry(null, g, new Gauge() {
                @Override
                public void set(double value, String... labelValues) {
                    g.labelValues(labelValues).set(value);
                }

                @Override
                public void add(double delta, String... labelValues) {
                    g.labelValues(labelValues).inc(delta);
                }
            });
        });
    }

    Histogram histogram(Object holder, String name, String help, List<Double> buckets, List<String> labels) {
        return (Histogram) get(holder, name, new Definition("histogram", List.copyOf(labels), List.copyOf(buckets)), () -> {
            var h = io.prometheus.metrics.core.metrics.Histogram.builder().name(name).help(help).classicOnly()
                    .classicUpperBounds(buckets.stream().mapToDouble(Double::doubleValue).toArray())
                    .labelNames(labels.toArray(String[]::new)).build();
            return new Entry(null, h, (Histogram) (value, values) -> h.labelValues(values).observe(value));
        });
    }

    /**
     * Lets go of every metric {@code holder} asked for; those nobody else holds leave {@code /metrics},
     * but keep their values for a bundle that asks for them again (the plugin's next revision).
     */
    synchronized void release(Object holder) {
        for (Entry e : byName.values()) {
            if (e.holders.remove(holder) && e.holders.isEmpty()) {
                server.unregister(e.metric);
            }
        }
    }

    private synchronized Object get(Object holder, String name, Definition definition,
                                    java.util.function.Supplier<Entry> create) {
        Entry e = byName.get(name);
        if (e == null) {
            Entry made = create.get();
            e = new Entry(definition, made.metric, made.facade);
            // Fails on a name the server's own metrics use.
            server.register(e.metric);
            byName.put(name, e);
        } else if (e.definition.equals(definition)) {
            if (e.holders.isEmpty()) {
                server.register(e.metric);
            }
        } else {
            throw new IllegalArgumentException("metric " + name + " exists as a " + e.definition.type() + " with labels "
                    + e.definition.labelNames() + (e.definition.buckets().isEmpty() ? "" : " and buckets " + e.definition.buckets())
                    + "; asked for a " + definition.type() + " with labels " + definition.labelNames());
        }
        e.holders.add(holder);
        return e.facade;
    }
}
