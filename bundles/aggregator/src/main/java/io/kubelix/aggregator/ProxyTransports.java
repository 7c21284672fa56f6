package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.support.webhook.CABundleTrust;

import javax.net.ssl.SSLContext;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTTP clients the aggregator reaches extension API servers with, one per TLS configuration
 * (kube-aggregator's BuildTransportConfig): the server is verified with the APIService's
 * {@code caBundle} (the JDK's CAs without one) and must be {@code <service>.<namespace>.svc}, or
 * is not verified at all with {@code insecureSkipTLSVerify}; the aggregator presents its proxy
 * client certificate.
 */
final class ProxyTransports {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    /** The TLS settings of an APIService that a client depends on. */
    record Key(String caBundle, boolean insecure, String serverName) {
        static Key of(JsonNode apiService) {
            JsonNode spec = apiService.path("spec");
            JsonNode service = spec.path("service");
            return new Key(spec.path("caBundle").asText(""), spec.path("insecureSkipTLSVerify").asBoolean(false),
                    service.path("name").asText("") + "." + service.path("namespace").asText("") + ".svc");
        }
    }

    private final ProxyClientCertificate clientCertificate;
    private final Map<Key, HttpClient> clients = new ConcurrentHashMap<>();
    private final Map<Key, SSLContext> contexts = new ConcurrentHashMap<>();

    ProxyTransports(ProxyClientCertificate clientCertificate) {
        this.clientCertificate = clientCertificate;
    }

    /**
     * The client for an APIService's TLS settings.
     *
     * @throws IllegalArgumentException when the caBundle cannot be read
     */
    HttpClient client(Key key) {
        HttpClient client = clients.get(key);
        if (client != null) {
            return client;
        }
        SSLContext tls = sslContext(key);
        return clients.computeIfAbsent(key, k -> newClient(tls));
    }

    /**
     * The TLS context for an APIService's settings, for what its client cannot do (an upgraded
     * connection's socket).
     *
     * @throws IllegalArgumentException when the caBundle cannot be read
     */
    SSLContext sslContext(Key key) {
        SSLContext tls = contexts.get(key);
        if (tls != null) {
            return tls;
        }
        try {
            tls = key.insecure() ? CABundleTrust.insecureSslContext(clientCertificate.keyManagers())
                    : CABundleTrust.sslContext(key.caBundle().isEmpty() ? null : Base64.getDecoder().decode(key.caBundle()),
                    key.serverName(), clientCertificate.keyManagers());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid caBundle: " + e.getMessage(), e);
        }
        SSLContext built = tls;
        return contexts.computeIfAbsent(key, k -> built);
    }

    /** The availability check's client: best effort, so any server is believed, as kube's check does. */
    HttpClient insecureClient() {
        return clients.computeIfAbsent(new Key("", true, ""), k -> {
            try {
                return newClient(CABundleTrust.insecureSslContext(clientCertificate.keyManagers()));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static HttpClient newClient(SSLContext tls) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).sslContext(tls).build();
    }

    /** Forgets the clients, for a new set of APIServices or certificates. */
    void clear() {
        clients.clear();
        contexts.clear();
    }
}
