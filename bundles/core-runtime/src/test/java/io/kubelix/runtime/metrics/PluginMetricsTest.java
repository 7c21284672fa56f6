package io.kubelix.runtime.metrics;

import io.kubelix.api.metrics.Counter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PluginMetricsTest {
    private final ServerMetrics server = new ServerMetrics();
    private final PluginMetrics plugins = new PluginMetrics(server);

    private String scrape() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, server.registry().scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPluginUpdateKeepsItsCountsAndARemovedPluginsMetricsLeave() throws Exception {
        Object oldRevision = new Object();
        Counter denied = plugins.counter(oldRevision, "my_plugin_denied", "Denied requests.", List.of("resource"));
        denied.inc("configmaps");
        denied.add(2, "configmaps");
        assertTrue(scrape().contains("my_plugin_denied_total{resource=\"configmaps\"} 3.0"), scrape());

        // An update: the old revision lets go, the new one asks for the same metric and counts on.
        plugins.release(oldRevision);
        assertFalse(scrape().contains("my_plugin_denied"), "nobody holds it: not on /metrics");
        Object newRevision = new Object();
        plugins.counter(newRevision, "my_plugin_denied", "Denied requests.", List.of("resource")).inc("configmaps");
        assertTrue(scrape().contains("my_plugin_denied_total{resource=\"configmaps\"} 4.0"), scrape());

        plugins.release(newRevision);
        assertFalse(scrape().contains("my_plugin_denied"));
    }

    @Test
    void twoBundlesShareAMetricAndConflictingDefinitionsAreRefused() {
        Object a = new Object();
        Object b = new Object();
        Counter first = plugins.counter(a, "shared_events", "Events.", List.of("kind"));
        assertSame(first, plugins.counter(b, "shared_events", "Events.", List.of("kind")));
        assertThrows(IllegalArgumentException.class, () -> plugins.counter(b, "shared_events", "Events.", List.of("other")));
        assertThrows(IllegalArgumentException.class, () -> plugins.gauge(b, "shared_events", "Events.", List.of("kind")));
        assertThrows(IllegalArgumentException.class,
                () -> plugins.counter(a, "apiserver_request", "Clashes with the server's own.", List.of("verb")));
    }
}
