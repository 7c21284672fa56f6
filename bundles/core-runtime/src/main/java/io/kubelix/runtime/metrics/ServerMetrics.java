package io.kubelix.runtime.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * The server's Prometheus registry and the metrics kube-apiserver's handlers record, with kube's
 * names, labels and buckets (k8s.io/apiserver's endpoints/metrics), so dashboards and alerts written
 * for kube-apiserver work unchanged. JVM and process metrics ({@code jvm_*}, {@code process_*}) come
 * from Prometheus' own JVM instrumentation.
 */
@Component(service = ServerMetrics.class)
public final class ServerMetrics {
    /** kube's request latency buckets, kept for its SLO dashboards (also etcd_request_duration_seconds'). */
    public static final double[] LATENCY_BUCKETS = {0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3,
            4, 5, 6, 8, 10, 15, 20, 30, 45, 60};
    /** The component label of every request this server serves itself. */
    public static final String COMPONENT = "apiserver";

    private final PrometheusRegistry registry = new PrometheusRegistry();

    final Counter requests = Counter.builder().name("apiserver_request")
            .help("Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.")
            .labelNames("verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component", "code")
            .register(registry);
    final Histogram requestDuration = Histogram.builder().name("apiserver_request_duration_seconds")
            .help("Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.")
            .classicOnly().classicUpperBounds(LATENCY_BUCKETS)
            .labelNames("verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component")
            .register(registry);
    final Histogram responseSizes = Histogram.builder().name("apiserver_response_sizes")
            .help("Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.")
            .classicOnly().classicExponentialUpperBounds(1000, 10, 7)
            .labelNames("verb", "group", "version", "resource", "subresource", "scope", "component")
            .register(registry);
    final Gauge longRunning = Gauge.builder().name("apiserver_longrunning_requests")
            .help("Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.")
            .labelNames("verb", "group", "version", "resource", "subresource", "scope", "component")
            .register(registry);
    final Counter pluginUpdates = Counter.builder().name("kubelix_plugin_updates")
            .help("Plugin updates that went unnoticed by clients: a new revision took the old one's place, by plugin bundle.")
            .labelNames("plugin")
            .register(registry);
    final Histogram pluginUpdateDrain = Histogram.builder().name("kubelix_plugin_update_drain_seconds")
            .help("Time from a plugin's old revision going away until its new revision served in its place, while requests for it waited.")
            .classicOnly().classicUpperBounds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
            .labelNames("plugin")
            .register(registry);

    final Counter auditEvents = Counter.builder().name("apiserver_audit_event")
            .help("Counter of audit events generated and sent to the audit backend.")
            .register(registry);
    final Counter auditErrors = Counter.builder().name("apiserver_audit_error")
            .help("Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.")
            .labelNames("plugin")
            .register(registry);
    final Counter auditLevels = Counter.builder().name("apiserver_audit_level")
            .help("Counter of policy levels for audit events (1 per request).")
            .labelNames("level")
            .register(registry);
    final Counter auditRequestsRejected = Counter.builder().name("apiserver_audit_requests_rejected")
            .help("Counter of apiserver requests rejected due to an error in audit logging backend.")
            .register(registry);

    /** The in-flight limits' use, per request kind. */
    private final InflightWatermark readOnlyInflight = new InflightWatermark();
    private final InflightWatermark mutatingInflight = new InflightWatermark();
    final Counter terminations = Counter.builder().name("apiserver_request_terminations")
            .help("Number of requests which apiserver terminated in self-defense.")
            .labelNames("verb", "group", "version", "resource", "subresource", "scope", "component", "code")
            .register(registry);
    final Counter watchEvents = Counter.builder().name("apiserver_watch_events")
            .help("Number of events sent in watch clients")
            .labelNames("group", "version", "kind")
            .register(registry);
    final Histogram watchEventSizes = Histogram.builder().name("apiserver_watch_events_sizes")
            .help("Watch event size distribution in bytes")
            .classicOnly().classicExponentialUpperBounds(1024, 2, 8)
            .labelNames("group", "version", "kind")
            .register(registry);

    private final AdmissionMetrics admission;
    /** kube's {@code apiserver_flowcontrol_*} metrics. */
    private final FlowControlMetrics flowControl = new FlowControlMetrics(registry);

    @Activate
    public ServerMetrics() {
        JvmMetrics.builder().register(registry);
        admission = new AdmissionMetrics(this);
        GaugeWithCallback.builder().name("apiserver_current_inflight_requests")
                .help("Maximal number of currently used inflight request limit of this apiserver per request kind in last second.")
                .labelNames("request_kind")
                .callback(cb -> {
                    cb.call(readOnlyInflight.read(), "readOnly");
                    cb.call(mutatingInflight.read(), "mutating");
                })
                .register(registry);
    }

    /** Requests answered since the start, all verbs and codes: the sum of {@code apiserver_request_total}. */
    public long requestsServed() {
        return (long) requests.collect().getDataPoints().stream().mapToDouble(d -> d.getValue()).sum();
    }

    /** Watches open now: {@code apiserver_longrunning_requests} of verb WATCH. */
    public long watchesOpen() {
        return (long) longRunning.collect().getDataPoints().stream()
                .filter(d -> "WATCH".equals(d.getLabels().get("verb"))).mapToDouble(d -> d.getValue()).sum();
    }

    /** The registry {@code /metrics} writes. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** The admission chain's latencies. */
    public AdmissionMetrics admission() {
        return admission;
    }

    /** Adds a collector (a metric of another part of the server, or of a plugin). */
    public void register(Collector collector) {
        registry.register(collector);
    }

    public void unregister(Collector collector) {
        registry.unregister(collector);
    }

    /** The use of the read-only in-flight limit ({@code apiserver_current_inflight_requests{request_kind="readOnly"}}). */
    public InflightWatermark readOnlyInflight() {
        return readOnlyInflight;
    }

    /** The use of the mutating in-flight limit. */
    public InflightWatermark mutatingInflight() {
        return mutatingInflight;
    }

    public FlowControlMetrics flowControl() {
        return flowControl;
    }

    /** Records one plugin update that took {@code seconds} from the old revision going to the new one serving. */
    public void pluginUpdated(String plugin, double seconds) {
        pluginUpdates.labelValues(plugin).inc();
        pluginUpdateDrain.labelValues(plugin).observe(seconds);
    }

    /** Records one event sent to a watcher of this group, version and kind, of {@code bytes} as encoded. */
    public void watchEvent(String group, String version, String kind, int bytes) {
        watchEvents.labelValues(group, version, kind).inc();
        watchEventSizes.labelValues(group, version, kind).observe(bytes);
    }
}
