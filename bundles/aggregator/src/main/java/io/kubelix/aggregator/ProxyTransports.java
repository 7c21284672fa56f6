package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.support.webhook.CABundleTrust;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The HTTP clients the aggregator reaches extension API servers with, one per TLS configuration
 * (kube-aggregator's BuildTransportConfig): the server is verified with the APIService's
 * {@code caBundle} (the JDK's CAs without one) and must be {@code <service>.<namespace>.svc}, or
 * is not verified at all with {@code insecureSkipTLSVerify}; the aggregator presents its proxy
 * client certificate. The proxy's own connections ({@link BackendConnection}) are kept alive per
 * TLS configuration and address, as Go's transport keeps them; the availability check and
 * discovery use the JDK's client.
 */
final class ProxyTransports {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** kube's proxy transport keeps 25 idle connections per host (utilnet.SetTransportDefaults). */
    static final int MAX_IDLE_PER_ROUTE = 25;
    /**
     * An idle connection is closed after this long, before a Kubelix extension server closes it
     * (32 s), so that the proxy seldom writes to a connection the server has just closed.
     */
    static final Duration MAX_IDLE = Duration.ofSeconds(20);

    /** The TLS settings of an APIService that a client depends on. */
    record Key(String caBundle, boolean insecure, String serverName) {
        static Key of(JsonNode apiService) {
            JsonNode spec = apiService.path("spec");
            JsonNode service = spec.path("service");
            return new Key(spec.path("caBundle").asText(""), spec.path("insecureSkipTLSVerify").asBoolean(false),
                    service.path("name").asText("") + "." + service.path("namespace").asText("") + ".svc");
        }
    }

    /** Where a kept-alive connection goes: the TLS settings it was opened with and the address. */
    private record Route(Key tls, String host, int port) {
    }

    private final ProxyClientCertificate clientCertificate;
    private final Map<Key, HttpClient> clients = new ConcurrentHashMap<>();
    private final Map<Key, SSLContext> contexts = new ConcurrentHashMap<>();
    private final Map<Route, Deque<BackendConnection>> idle = new ConcurrentHashMap<>();

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

    /**
     * An idle connection to {@code host:port} made with the APIService's TLS settings, the most
     * recently used first, or a new one when none is left.
     *
     * @throws IllegalArgumentException when the caBundle cannot be read
     * @throws IOException when a new connection cannot be made
     */
    BackendConnection connection(Key key, String host, int port) throws IOException {
        Deque<BackendConnection> parked = idle.get(new Route(key, host, port));
        if (parked != null) {
            long now = System.nanoTime();
            for (BackendConnection c = parked.pollFirst(); c != null; c = parked.pollFirst()) {
                if (now - c.idleSince() < MAX_IDLE.toNanos() && !c.socket().isClosed()) {
                    return c;
                }
                c.close();
            }
        }
        return newConnection(key, host, port);
    }

    /**
     * A new connection, never an idle one.
     *
     * @throws IllegalArgumentException when the caBundle cannot be read
     */
    BackendConnection newConnection(Key key, String host, int port) throws IOException {
        // kube sends the service's DNS name as the TLS server name, unless the server is not verified.
        return BackendConnection.open(sslContext(key), key.insecure() ? "" : key.serverName(), host, port);
    }

    /** Keeps a connection whose exchange has ended cleanly for the next request to the same place. */
    void release(Key key, String host, int port, BackendConnection connection) {
        Deque<BackendConnection> parked = idle.computeIfAbsent(new Route(key, host, port), r -> new ConcurrentLinkedDeque<>());
        if (parked.size() >= MAX_IDLE_PER_ROUTE) {
            connection.close();
            return;
        }
        connection.idle(System.nanoTime());
        parked.addFirst(connection);
    }

    /** Forgets the clients and closes the idle connections, for a new set of APIServices or certificates. */
    void clear() {
        clients.clear();
        contexts.clear();
        idle.values().forEach(parked -> {
            for (BackendConnection c = parked.pollFirst(); c != null; c = parked.pollFirst()) {
                c.close();
            }
        });
    }
}
