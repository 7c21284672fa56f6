package io.kubelix.runtime.metrics;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** kube's audit metrics ({@code apiserver_audit_*}, audit/metrics.go) and its HandlePluginError. */
public final class AuditMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(AuditMetrics.class);

    private final ServerMetrics metrics;

    public AuditMetrics(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    /** ObserveEvent: one event sent to the backend. */
    public void event() {
        metrics.auditEvents.inc();
    }

    /** ObservePolicyLevel: the level a request is audited at ({@code None} included). */
    public void policyLevel(String level) {
        metrics.auditLevels.labelValues(level).inc();
    }

    /** A request refused because its RequestReceived event could not be recorded. */
    public void requestRejected() {
        metrics.auditRequestsRejected.inc();
    }

    /**
     * HandlePluginError: counts the events {@code plugin} failed to record and logs them.
     *
     * @param describe an event's one-line form for the log
     */
    public <E> void pluginError(String plugin, String error, List<E> impacted, Function<E, String> describe) {
        metrics.auditErrors.labelValues(plugin).inc(impacted.size());
        LOG.error("Error in audit plugin '{}' affecting {} audit events: {}; impacted events: {}", plugin,
                impacted.size(), error, impacted.stream().limit(10).map(describe).collect(Collectors.joining(" | ")));
    }

    public double eventCount() {
        return metrics.auditEvents.get();
    }

    public double errorCount(String plugin) {
        return metrics.auditErrors.labelValues(plugin).get();
    }
}
