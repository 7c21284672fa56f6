package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.support.webhook.CABundleTrust;
import io.kubelix.support.webhook.ServiceResolver;
import io.kubelix.support.webhook.WebhookErrors;
import io.kubelix.support.webhook.WebhookTarget;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * POSTs AdmissionReviews to webhooks (kube's {@code webhook.ClientManager}): to
 * {@code clientConfig.url}, or to an endpoint of {@code clientConfig.service} with its
 * {@code path}, over HTTPS verified with {@code caBundle} (the JDK's CAs without one), with
 * kube's {@code ?timeout=<n>s} and the webhook's {@code timeoutSeconds} as the deadline. One HTTP
 * client per CA bundle and server name is kept, so connections are reused across requests.
 */
final class WebhookClient {
    private static final int CLIENTS = 64;

    private record ClientKey(String caBundle, String serverName) {
    }

    private final ServiceResolver services;
    private final ObjectMapper json;
    private final Map<ClientKey, HttpClient> clients = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ClientKey, HttpClient> eldest) {
            return size() > CLIENTS;
        }
    };

    WebhookClient(ServiceResolver services, ObjectMapper json) {
        this.services = services;
        this.json = json;
    }

    /** Sends {@code review} to {@code hook}; completes with the AdmissionReview answered, or a {@link CallingWebhookException}. */
    CompletableFuture<JsonNode> call(Webhook hook, ObjectNode review) {
        WebhookTarget target;
        HttpClient client;
        byte[] body;
        try {
            target = target(hook);
            client = client(hook.name(), hook.clientConfig().path("caBundle").asText(""), target.serverName());
            body = json.writeValueAsBytes(review);
        } catch (CallingWebhookException e) {
            return CompletableFuture.failedFuture(e);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(new CallingWebhookException(hook.name(), e.getMessage()));
        }
        String timeout = "?timeout=" + hook.timeoutSeconds() + "s";
        String shown = target.shown() + timeout;
        HttpRequest request = HttpRequest.newBuilder(URI.create(target.connect() + timeout))
                .timeout(Duration.ofSeconds(hook.timeoutSeconds()))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
            if (failure != null) {
                throw new CompletionException(new CallingWebhookException(hook.name(),
                        "failed to call webhook: Post \"" + shown + "\": " + WebhookErrors.describe(failure, target.connect())));
            }
            try {
                if (response.statusCode() / 100 != 2) {
                    throw new CallingWebhookException(hook.name(), "failed to call webhook: the server responded with the "
                            + "status code " + response.statusCode() + " but did not return more information");
                }
                return json.readTree(response.body());
            } catch (CallingWebhookException e) {
                throw new CompletionException(e);
            } catch (IOException e) {
                throw new CompletionException(new CallingWebhookException(hook.name(),
                        "failed to call webhook: " + e.getMessage()));
            }
        });
    }

    /** The webhook's address: its URL, or its service resolved to one ready endpoint. */
    WebhookTarget target(Webhook hook) throws CallingWebhookException {
        try {
            return WebhookTarget.of(hook.clientConfig(), services);
        } catch (WebhookTarget.UnresolvedService e) {
            throw new CallingWebhookException(hook.name(), "failed to call webhook: Post \"" + e.shown() + "?timeout="
                    + hook.timeoutSeconds() + "s\": " + e.getMessage());
        }
    }

    private HttpClient client(String webhook, String caBundle, String serverName) throws CallingWebhookException {
        ClientKey key = new ClientKey(caBundle, serverName);
        synchronized (clients) {
            HttpClient c = clients.get(key);
            if (c != null) {
                return c;
            }
        }
        HttpClient c;
        try {
            byte[] ca = caBundle.isEmpty() ? null : Base64.getDecoder().decode(caBundle);
            c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                    .sslContext(CABundleTrust.sslContext(ca, serverName)).build();
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new CallingWebhookException(webhook, "invalid caBundle: " + e.getMessage());
        }
        synchronized (clients) {
            clients.put(key, c);
        }
        return c;
    }
}
