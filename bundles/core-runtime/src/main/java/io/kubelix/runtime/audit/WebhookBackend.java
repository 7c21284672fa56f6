package io.kubelix.runtime.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kubelix.runtime.metrics.AuditMetrics;
import io.kubelix.support.webhook.WebhookKubeconfig;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * kube's webhook backend ({@code plugin/pkg/audit/webhook}): events are POSTed as an
 * {@code audit.k8s.io/v1} EventList to the server of {@code --audit-webhook-config-file}. A
 * request that fails to connect, or is answered 429 or 5xx, is tried again after
 * {@code --audit-webhook-initial-backoff}, then 1.5 times longer each time (with 20% jitter), five
 * tries in all; events it could not deliver are counted as errors of the {@code webhook} plugin.
 */
public final class WebhookBackend implements AuditBackend {
    static final String PLUGIN = "webhook";
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final int STEPS = 5;

    private final WebhookKubeconfig target;
    private final HttpClient client;
    private final Duration initialBackoff;
    private final AuditMetrics metrics;

    public WebhookBackend(WebhookKubeconfig target, HttpClient client, Duration initialBackoff, AuditMetrics metrics) {
        this.target = target;
        this.client = client;
        this.initialBackoff = initialBackoff;
        this.metrics = metrics;
    }

    @Override
    public boolean processEvents(List<Event> events) {
        String error;
        try {
            error = post(eventList(events));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        }
        if (error != null) {
            metrics.pluginError(PLUGIN, error, events, EventFormat::legacyString);
            return false;
        }
        return true;
    }

    /** The error of the last try, or null once delivered. */
    private String post(byte[] body) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(target.server()).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (target.token() != null) {
            request.header("Authorization", "Bearer " + target.token());
        }
        HttpRequest built = request.build();
        double backoff = initialBackoff.toMillis();
        String error = null;
        for (int attempt = 1; attempt <= STEPS; attempt++) {
            boolean retry;
            try {
                HttpResponse<String> response = client.send(built, HttpResponse.BodyHandlers.ofString());
                int code = response.statusCode();
                if (code >= 200 && code < 300) {
                    return null;
                }
                error = "the server responded with the status code " + code + ": " + abbreviate(response.body());
                retry = code == 429 || code >= 500;
            } catch (IOException e) {
                error = e.toString();
                retry = true;
            }
            if (!retry || attempt == STEPS) {
                break;
            }
            long sleep = (long) (backoff * (1 + ThreadLocalRandom.current().nextDouble(0.2)));
            Thread.sleep(sleep);
            backoff *= 1.5;
        }
        return error;
    }

    static byte[] eventList(List<Event> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024 * events.size());
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("kind", "EventList");
            g.writeStringField("apiVersion", PolicyReader.API_VERSION);
            g.writeObjectFieldStart("metadata");
            g.writeEndObject();
            g.writeArrayFieldStart("items");
            for (Event ev : events) {
                EventFormat.writeEvent(g, ev, false);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    @Override
    public void shutdown() {
    }

    @Override
    public String toString() {
        return "webhook(" + target.server() + ")";
    }
}
