package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.support.webhook.AuthenticationInfoResolver;
import io.kubelix.support.webhook.CABundleTrust;
import io.kubelix.support.webhook.ServiceResolver;
import io.kubelix.support.webhook.WebhookErrors;
import io.kubelix.support.webhook.WebhookTarget;
import io.kubelix.support.webhook.x509.ClientCertificate;

import javax.net.ssl.KeyManager;
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
 * kube's {@code ?timeout=<n>s} and the webhook's {@code timeoutSeconds} as the deadline, presenting
 * what the plugin's {@code kubeConfigFile} gives the target ({@link AuthenticationInfoResolver}: a
 * client certificate, a bearer token or basic credentials). One HTTP client per CA bundle, server
 * name and user is kept, so connections are reused across requests.
 */
final class WebhookClient {
    private static final int CLIENTS = 64;

    /** Clients differ by the CA trusted, the name checked and the user whose certificate they present. */
    private record ClientKey(String caBundle, String serverName, AuthenticationInfoResolver.AuthInfo user) {
    }

    private final ServiceResolver services;
    private final ObjectMapper json;
    private final AuthenticationInfoResolver credentials;
    private final Map<ClientKey, HttpClient> clients = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ClientKey, HttpClient> eldest) {
            return size() > CLIENTS;
        }
    };

    WebhookClient(ServiceResolver services, ObjectMapper json) {
        this(services, json, AuthenticationInfoResolver.NONE);
    }

    /** A client presenting the credentials {@code credentials} gives each webhook's target (kube's {@code kubeConfigFile}). */
    WebhookClient(ServiceResolver services, ObjectMapper json, AuthenticationInfoResolver credentials) {
        this.services = services;
        this.json = json;
        this.credentials = credentials;
    }

    /** Sends {@code review} to {@code hook}; completes with the AdmissionReview answered, or a {@link CallingWebhookException}. */
    CompletableFuture<JsonNode> call(Webhook hook, ObjectNode review) {
        WebhookTarget target;
        HttpClient client;
        byte[] body;
        AuthenticationInfoResolver.AuthInfo user;
        try {
            target = target(hook);
            user = credentials.forClientConfig(hook.clientConfig());
            client = client(hook.name(), hook.clientConfig().path("caBundle").asText(""), target.serverName(), user);
            body = json.writeValueAsBytes(review);
        } catch (CallingWebhookException e) {
            return CompletableFuture.failedFuture(e);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(new CallingWebhookException(hook.name(), e.getMessage()));
        }
        String timeout = "?timeout=" + hook.timeoutSeconds() + "s";
        String shown = target.shown() + timeout;
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target.connect() + timeout))
                .timeout(Duration.ofSeconds(hook.timeoutSeconds()))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (user.authorization() != null) {
            request.header("Authorization", user.authorization());
        }
        return client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
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

    private HttpClient client(String webhook, String caBundle, String serverName,
                              AuthenticationInfoResolver.AuthInfo user) throws CallingWebhookException {
        ClientKey key = new ClientKey(caBundle, serverName, user);
        synchronized (clients) {
            HttpClient c = clients.get(key);
            if (c != null) {
                return c;
            }
        }
        HttpClient c;
        KeyManager[] keys;
        try {
            keys = user.hasClientCertificate() ? ClientCertificate.keyManagers(user.clientCertPem(), user.clientKeyPem())
                    : null;
        } catch (GeneralSecurityException e) {
            throw new CallingWebhookException(webhook, "unable to load client certificate: " + e.getMessage());
        }
        try {
            byte[] ca = caBundle.isEmpty() ? null : Base64.getDecoder().decode(caBundle);
            c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                    .sslContext(CABundleTrust.sslContext(ca, serverName, keys)).build();
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new CallingWebhookException(webhook, "invalid caBundle: " + e.getMessage());
        }
        synchronized (clients) {
            clients.put(key, c);
        }
        return c;
    }
}
