package io.kubelix.runtime.metrics;

import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code GET /metrics}: the registry in the Prometheus text format (0.0.4), or in OpenMetrics 1.0
 * when the Accept header asks for {@code application/openmetrics-text}, as Prometheus' scraper does.
 */
public final class MetricsHandler {
    public static final String PATH = "/metrics";

    private final ServerMetrics metrics;
    private final ExpositionFormatWriter text = PrometheusTextFormatWriter.create();
    private final ExpositionFormatWriter openMetrics = OpenMetricsTextFormatWriter.create();

    public MetricsHandler(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    public void serve(Request request, Response response, Callback callback) {
        String accept = request.getHeaders().get(HttpHeader.ACCEPT);
        ExpositionFormatWriter writer = openMetrics.accepts(accept) ? openMetrics : text;
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        try {
            writer.write(out, metrics.registry().scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Responses.write(response, callback, 200, writer.getContentType(), out.toByteArray());
    }
}
