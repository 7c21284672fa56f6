package io.kubelix.runtime.metrics;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * kube-apiserver's MonitorRequest and RecordLongRunning over {@link ServerMetrics}: one request's
 * count, latency and response size, recorded once when it completes.
 */
public final class RequestMetrics {
    private final ServerMetrics metrics;

    public RequestMetrics(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    /** A request with these labels that arrived at {@code beginNanos} ({@link System#nanoTime()}). */
    public InFlight begin(RequestLabels labels, long beginNanos) {
        if (labels.longRunning()) {
            longRunning(labels).inc();
        }
        return new InFlight(labels, beginNanos);
    }

    /** Counts a request refused in self-defense ({@code apiserver_request_terminations_total}) with this code. */
    public void terminated(RequestLabels l, int code) {
        metrics.terminations.labelValues(l.verb(), l.group(), l.version(), l.resource(), l.subresource(), l.scope(),
                ServerMetrics.COMPONENT, Integer.toString(code)).inc();
    }

    /** Counts a request dropped with 429 before it was served, as kube's RecordDroppedRequest. */
    public void dropped(RequestLabels l) {
        metrics.requests.labelValues(l.verb(), l.dryRun(), l.group(), l.version(), l.resource(), l.subresource(),
                l.scope(), ServerMetrics.COMPONENT, "429").inc();
    }

    private io.prometheus.metrics.core.datapoints.GaugeDataPoint longRunning(RequestLabels l) {
        return metrics.longRunning.labelValues(l.verb(), l.group(), l.version(), l.resource(), l.subresource(),
                l.scope(), ServerMetrics.COMPONENT);
    }

    /** A request being served. */
    public final class InFlight {
        private final RequestLabels labels;
        private final long beginNanos;
        private final AtomicBoolean done = new AtomicBoolean();

        private InFlight(RequestLabels labels, long beginNanos) {
            this.labels = labels;
            this.beginNanos = beginNanos;
        }

        /** Records the request's outcome; later calls do nothing. */
        public void done(int code, long responseBytes) {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            RequestLabels l = labels;
            double seconds = (System.nanoTime() - beginNanos) / 1e9;
            String c = ServerMetrics.COMPONENT;
            metrics.requests.labelValues(l.verb(), l.dryRun(), l.group(), l.version(), l.resource(), l.subresource(),
                    l.scope(), c, Integer.toString(code)).inc();
            metrics.requestDuration.labelValues(l.verb(), l.dryRun(), l.group(), l.version(), l.resource(),
                    l.subresource(), l.scope(), c).observe(seconds);
            if (l.verb().equals("GET") || l.verb().equals("LIST")) {
                metrics.responseSizes.labelValues(l.verb(), l.group(), l.version(), l.resource(), l.subresource(),
                        l.scope(), c).observe(responseBytes);
            }
            if (l.longRunning()) {
                longRunning(l).dec();
            }
        }
    }
}
