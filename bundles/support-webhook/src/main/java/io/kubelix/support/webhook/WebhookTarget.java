package io.kubelix.support.webhook;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;

/**
 * Where a webhook's {@code clientConfig} points (kube's {@code webhook.ClientConfig}): the address
 * connected to, the URL kube names in its errors, and the name TLS checks the server's certificate
 * against. A {@code url} is all three; a {@code service} is connected at one of its endpoints
 * ({@link ServiceResolver}), shown as {@code https://<service>.<namespace>.svc:<port><path>} and
 * checked as {@code <service>.<namespace>.svc}.
 */
public record WebhookTarget(URI connect, String shown, String serverName) {

    /** The service of a {@code clientConfig} could not be resolved; each caller words the failure its own way. */
    public static final class UnresolvedService extends Exception {
        private final String shown;

        UnresolvedService(String shown, String reason) {
            super(reason, null, false, false);
            this.shown = shown;
        }

        /** The URL kube names in its error, {@code https://<service>.<namespace>.svc:<port><path>}. */
        public String shown() {
            return shown;
        }
    }

    /**
     * The target of {@code clientConfig}: its {@code url} when set, else its {@code service} (port
     * 443 unless given) resolved to a ready endpoint.
     *
     * @throws UnresolvedService with {@link ServiceResolver}'s words when the service cannot be reached
     */
    public static WebhookTarget of(JsonNode clientConfig, ServiceResolver services) throws UnresolvedService {
        if (clientConfig.hasNonNull("url")) {
            URI url = URI.create(clientConfig.get("url").asText());
            return new WebhookTarget(url, url.toString(), url.getHost().replaceAll("^\\[|]$", ""));
        }
        JsonNode svc = clientConfig.path("service");
        String namespace = svc.path("namespace").asText();
        String name = svc.path("name").asText();
        int port = svc.path("port").asInt(443);
        String path = svc.path("path").asText("");
        String serverName = name + "." + namespace + ".svc";
        String shown = "https://" + serverName + ":" + port + path;
        try {
            return new WebhookTarget(URI.create(services.resolve(namespace, name, port) + path), shown, serverName);
        } catch (IllegalStateException e) {
            throw new UnresolvedService(shown, e.getMessage());
        }
    }
}
