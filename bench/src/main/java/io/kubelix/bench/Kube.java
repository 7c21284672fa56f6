package io.kubelix.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thin Kubernetes REST client over java.net.http: HTTP/2 over TLS, bearer token. Java's client
 * multiplexes every request of one {@link HttpClient} over one connection, so watches are spread
 * over several clients ({@link #watchClient(int)}), {@code --watches-per-connection} each.
 */
final class Kube {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final int STREAMS_PER_CONNECTION = 100;

    final URI server;
    private final String token;
    private final SSLContext ssl;
    /** Clients for plain requests, each kept under the server's HTTP/2 stream limit (JDK 17 fails a request past it). */
    private final List<HttpClient> requestClients = new ArrayList<>();
    private final List<Semaphore> requestSlots = new ArrayList<>();
    private final AtomicInteger nextClient = new AtomicInteger();
    private final List<HttpClient> watchClients = new ArrayList<>();
    private final int watchesPerConnection;
    private final ExecutorService executor;
    /** Watches and measured GETs over Jetty's HTTP/2 client ({@code --client jetty}, the default), or null for java.net.http. */
    private final JettyHttp2 jetty;

    Kube(Options o) throws Exception {
        String server = o.get("server");
        String token = o.get("token");
        byte[] caPem = o.get("ca") != null ? Files.readAllBytes(Path.of(o.get("ca"))) : null;
        if (o.get("kubeconfig") != null) {
            JsonNode kc = new YAMLMapper().readTree(Path.of(o.get("kubeconfig")).toFile());
            String ctxName = kc.path("current-context").asText();
            JsonNode ctx = named(kc.path("contexts"), ctxName).path("context");
            JsonNode cluster = named(kc.path("clusters"), ctx.path("cluster").asText()).path("cluster");
            JsonNode user = named(kc.path("users"), ctx.path("user").asText()).path("user");
            if (server == null) {
                server = cluster.path("server").asText();
            }
            if (token == null && user.hasNonNull("token")) {
                token = user.path("token").asText();
            }
            if (caPem == null && cluster.hasNonNull("certificate-authority-data")) {
                caPem = Base64.getDecoder().decode(cluster.path("certificate-authority-data").asText());
            } else if (caPem == null && cluster.hasNonNull("certificate-authority")) {
                caPem = Files.readAllBytes(Path.of(cluster.path("certificate-authority").asText()));
            }
        }
        if (server == null) {
            throw new IllegalArgumentException("--server or --kubeconfig is required");
        }
        this.server = URI.create(server.endsWith("/") ? server.substring(0, server.length() - 1) : server);
        this.token = token;
        TrustManager[] trust = o.flag("insecure") ? trustAll() : caPem != null ? trusting(caPem) : null;
        this.ssl = trust == null ? SSLContext.getDefault() : context(trust, null);
        this.watchesPerConnection = o.integer("watches-per-connection", 100);
        // One pool for every client's callbacks: tens of HttpClients with their own cached pools would
        // start hundreds of threads on a 2-core machine.
        this.executor = Executors.newFixedThreadPool(o.integer("client-threads", 4), r -> {
            Thread t = new Thread(r, "bench-http");
            t.setDaemon(true);
            return t;
        });
        String client = o.get("client", "jetty");
        if (!client.equals("jetty") && !client.equals("jdk")) {
            throw new IllegalArgumentException("--client must be jetty or jdk, not " + client);
        }
        this.jetty = client.equals("jetty")
                ? new JettyHttp2(this.server, jettyTls(trust, o.get("tls-provider", "auto")), o.flag("insecure"), token,
                watchesPerConnection) : null;
        for (int i = 0; i < o.integer("request-connections", 4); i++) {
            requestClients.add(connected(newClient()));
            requestSlots.add(new Semaphore(STREAMS_PER_CONNECTION));
        }
    }

    private static JsonNode named(JsonNode list, String name) {
        for (JsonNode n : list) {
            if (name.equals(n.path("name").asText())) {
                return n;
            }
        }
        throw new IllegalArgumentException("kubeconfig has no entry named " + name);
    }

    private HttpClient newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(ssl)
                .executor(executor)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /**
     * The client after one request has finished on it. The JDK client opens a new connection for
     * every request sent before its first HTTP/2 connection is up, so a burst of watches on a fresh
     * client would each get a TCP+TLS connection of their own (seen: 8,990 connections for 10,000
     * watches); afterwards they share the one connection.
     */
    private HttpClient connected(HttpClient client) {
        try {
            client.send(request("/version").GET().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return client;
    }

    /**
     * Opens the {@code i}-th watch on {@code pathAndQuery} for {@code w}: watches are packed
     * {@code watches-per-connection} to a connection.
     */
    void watch(int i, String pathAndQuery, Watcher w) throws Exception {
        if (jetty != null) {
            jetty.watch(i, pathAndQuery, w);
        } else {
            w.start(watchClient(i), streamRequest(pathAndQuery).header("Accept", "application/json").build());
        }
    }

    /**
     * A GET whose time is measured: over Jetty's HTTP/2 client (on a connection of its own) unless
     * {@code --client jdk}. The body is kept only when {@code keep}; otherwise only its length.
     */
    JettyHttp2.Body measuredGet(String pathAndQuery, boolean keep) throws Exception {
        if (jetty != null) {
            return jetty.get(0, pathAndQuery, keep).get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        HttpResponse<byte[]> r = send("GET", pathAndQuery, null, null).get(60, java.util.concurrent.TimeUnit.SECONDS);
        return new JettyHttp2.Body(r.statusCode(), r.body().length, r.body());
    }

    /** The client for the {@code i}-th watch: watches are packed {@code watches-per-connection} to a client. */
    private synchronized HttpClient watchClient(int i) {
        int c = i / watchesPerConnection;
        while (watchClients.size() <= c) {
            watchClients.add(connected(newClient()));
        }
        return watchClients.get(c);
    }

    HttpRequest.Builder request(String path) {
        return streamRequest(path).timeout(Duration.ofSeconds(60));
    }

    /** A request without a response timeout, for watches: the JDK client's timeout would cut a long stream. */
    HttpRequest.Builder streamRequest(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.resolve(path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    CompletableFuture<HttpResponse<byte[]>> send(String method, String path, String contentType, byte[] body) {
        return send(method, path, contentType, body, null);
    }

    /** A request with another bearer token than the connection's, or the connection's when {@code bearer} is null. */
    CompletableFuture<HttpResponse<byte[]>> send(String method, String path, String contentType, byte[] body,
                                                 String bearer) {
        HttpRequest.Builder b = request(path).header("Accept", "application/json");
        if (bearer != null) {
            b.setHeader("Authorization", "Bearer " + bearer);
        }
        if (body != null) {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        // Round robin; a request waits here for a free stream, which shows as latency, not as an error.
        int c = Math.floorMod(nextClient.getAndIncrement(), requestClients.size());
        Semaphore slots = requestSlots.get(c);
        slots.acquireUninterruptibly();
        return requestClients.get(c).sendAsync(b.build(), HttpResponse.BodyHandlers.ofByteArray())
                .whenComplete((r, t) -> slots.release());
    }

    /** A request that must succeed (2xx); the parsed body. */
    JsonNode call(String method, String path, Object body) throws IOException, InterruptedException {
        byte[] bytes = body == null ? null : JSON.writeValueAsBytes(body);
        HttpResponse<byte[]> r = send(method, path, "application/json", bytes).join();
        if (r.statusCode() / 100 != 2) {
            throw new IOException(method + " " + path + ": HTTP " + r.statusCode() + " " + new String(r.body()));
        }
        return JSON.readTree(r.body());
    }

    /** Creates the namespace unless it exists. */
    void ensureNamespace(String ns) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = send("GET", "/api/v1/namespaces/" + ns, null, null).join();
        if (r.statusCode() == 200) {
            return;
        }
        ObjectNode body = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
        body.putObject("metadata").put("name", ns);
        call("POST", "/api/v1/namespaces", body);
    }

    /** An object as a request body. */
    static byte[] bytes(Object o) {
        try {
            return JSON.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String configMapsPath(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    static ObjectNode configMap(String name, String key, String value) {
        ObjectNode cm = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", name);
        cm.putObject("data").put(key, value);
        return cm;
    }

    /** Deletes every configmap of the namespace (deletecollection). */
    void deleteConfigMaps(String ns) throws IOException, InterruptedException {
        call("DELETE", configMapsPath(ns), null);
    }

    /**
     * The TLS context of the Jetty client: Conscrypt's (BoringSSL, far cheaper per byte than the
     * JDK's, as the server may use) with {@code --tls-provider auto} when it loads, or conscrypt; the
     * JDK's with jdk.
     */
    private static SSLContext jettyTls(TrustManager[] trust, String choice) throws Exception {
        boolean conscrypt = switch (choice) {
            case "jdk" -> false;
            case "conscrypt" -> true;
            case "auto" -> org.conscrypt.Conscrypt.isAvailable();
            default -> throw new IllegalArgumentException("--tls-provider must be auto, conscrypt or jdk, not " + choice);
        };
        if (conscrypt) {
            org.conscrypt.Conscrypt.checkAvailability();
        }
        SSLContext ctx = conscrypt
                ? context(genericAuthType(trust), org.conscrypt.Conscrypt.newProvider())
                : context(trust, null);
        System.out.println("client TLS: " + ctx.getProvider().getName());
        return ctx;
    }

    /**
     * Conscrypt names the key exchange of a TLS 1.3 handshake "GENERIC", which the JDK's trust
     * manager does not know; it is checked as the JDK checks TLS 1.3 itself ("UNKNOWN").
     */
    private static TrustManager[] genericAuthType(TrustManager[] trust) throws Exception {
        if (trust == null) {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init((KeyStore) null);
            trust = tmf.getTrustManagers();
        }
        TrustManager[] out = trust.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] instanceof javax.net.ssl.X509ExtendedTrustManager d) {
                out[i] = new javax.net.ssl.X509ExtendedTrustManager() {
                    private String type(String authType) {
                        return "GENERIC".equals(authType) ? "UNKNOWN" : authType;
                    }

                    @Override
                    public void checkClientTrusted(X509Certificate[] c, String a, java.net.Socket s)
                            throws java.security.cert.CertificateException {
                        d.checkClientTrusted(c, type(a), s);
                    }

                    @Override
                    public void checkServerTrusted(X509Certificate[] c, String a, java.net.Socket s)
                            throws java.security.cert.CertificateException {
                        d.checkServerTrusted(c, type(a), s);
                    }

                    @Override
                    public void checkClientTrusted(X509Certificate[] c, String a, javax.net.ssl.SSLEngine e)
                            throws java.security.cert.CertificateException {
                        d.checkClientTrusted(c, type(a), e);
                    }

                    @Override
                    public void checkServerTrusted(X509Certificate[] c, String a, javax.net.ssl.SSLEngine e)
                            throws java.security.cert.CertificateException {
                        d.checkServerTrusted(c, type(a), e);
                    }

                    @Override
                    public void checkClientTrusted(X509Certificate[] c, String a)
                            throws java.security.cert.CertificateException {
                        d.checkClientTrusted(c, type(a));
                    }

                    @Override
                    public void checkServerTrusted(X509Certificate[] c, String a)
                            throws java.security.cert.CertificateException {
                        d.checkServerTrusted(c, type(a));
                    }

                    @Override
                    public X509Certificate[] getAcceptedIssuers() {
                        return d.getAcceptedIssuers();
                    }
                };
            }
        }
        return out;
    }

    private static SSLContext context(TrustManager[] trust, java.security.Provider provider) throws Exception {
        SSLContext ctx = provider == null ? SSLContext.getInstance("TLS") : SSLContext.getInstance("TLS", provider);
        ctx.init(null, trust, null);
        return ctx;
    }

    private static TrustManager[] trusting(byte[] pem) throws Exception {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        int i = 0;
        try (InputStream in = new ByteArrayInputStream(pem)) {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                ks.setCertificateEntry("ca" + i++, c);
            }
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        return tmf.getTrustManagers();
    }

    private static TrustManager[] trustAll() {
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        TrustManager tm = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        return new TrustManager[]{tm};
    }
}
