package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * An admission webhook server as a test runs one: HTTPS on a free loopback port, with a CA and a
 * certificate made by openssl for {@code 127.0.0.1} and {@code webhook.webhooks.svc}; each path
 * answers AdmissionReviews with its own function (or, for other reviews such as a CRD's
 * ConversionReviews, answers with the whole body its function makes), and every review received is kept.
 */
final class AdmissionWebhookServer implements AutoCloseable {
    static final String SERVICE_DNS_NAME = "webhook.webhooks.svc";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A review received: the path it was posted to and the review. */
    record Received(String path, JsonNode review) {
    }

    final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, Function<JsonNode, ObjectNode>> handlers = new ConcurrentHashMap<>();
    private final Map<String, Function<JsonNode, ObjectNode>> bodies = new ConcurrentHashMap<>();
    private final String caBundle;
    private final HttpsServer server;

    AdmissionWebhookServer(Path dir) throws Exception {
        this(dir, null);
    }

    /**
     * A server that, with {@code requiredToken}, asks each client for a certificate of its own client
     * CA ({@code client.crt} and {@code client.key} in {@code dir}) in the TLS handshake and answers
     * 401 to a request without {@code Authorization: Bearer <requiredToken>}, as a webhook that
     * authenticates kube-apiserver does.
     */
    AdmissionWebhookServer(Path dir, String requiredToken) throws Exception {
        Files.createDirectories(dir);
        Openssl.run(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=webhook-ca",
                "-keyout", "ca.key", "-out", "ca.crt");
        Openssl.run(dir, "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=webhook", "-keyout", "server.key",
                "-out", "server.csr");
        Files.writeString(dir.resolve("san.cnf"), "subjectAltName=IP:127.0.0.1,DNS:" + SERVICE_DNS_NAME + "\n");
        Openssl.run(dir, "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-extfile", "san.cnf", "-out", "server.crt");
        Openssl.run(dir, "pkcs12", "-export", "-in", "server.crt", "-inkey", "server.key", "-certfile", "ca.crt",
                "-passout", "pass:webhook", "-out", "server.p12");
        caBundle = Base64.getEncoder().encodeToString(Files.readAllBytes(dir.resolve("ca.crt")));

        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            keys.load(in, "webhook".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, "webhook".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), requiredToken == null ? null : clientTrust(dir), null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = tls.getDefaultSSLParameters();
                p.setNeedClientAuth(requiredToken != null);
                params.setSSLParameters(p);
            }
        });
        server.createContext("/", exchange -> {
            if (requiredToken != null
                    && !("Bearer " + requiredToken).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.sendResponseHeaders(401, -1);
                exchange.close();
                return;
            }
            String path = exchange.getRequestURI().getPath();
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            received.add(new Received(path, review));
            Function<JsonNode, ObjectNode> handler = handlers.get(path);
            ObjectNode out = JSON.createObjectNode();
            if (bodies.containsKey(path)) {
                out = bodies.get(path).apply(review);
            } else {
                out.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
                out.set("response", handler == null ? allow(review) : handler.apply(review));
            }
            byte[] body = JSON.writeValueAsBytes(out);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** Makes a client CA and a client certificate of it, and trusts that CA for clients. */
    private static TrustManager[] clientTrust(Path dir) throws Exception {
        Openssl.run(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=webhook-client-ca",
                "-keyout", "client-ca.key", "-out", "client-ca.crt");
        Openssl.run(dir, "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=kube-apiserver", "-keyout", "client.key",
                "-out", "client.csr");
        Openssl.run(dir, "x509", "-req", "-in", "client.csr", "-CA", "client-ca.crt", "-CAkey", "client-ca.key",
                "-CAcreateserial", "-days", "1", "-out", "client.crt");
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(dir.resolve("client-ca.crt"))) {
            trusted.setCertificateEntry("client-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        return tmf.getTrustManagers();
    }

    /** Answers reviews posted to {@code path} with {@code handler}. */
    void handle(String path, Function<JsonNode, ObjectNode> handler) {
        handlers.put(path, handler);
    }

    /** Answers reviews posted to {@code path} with the whole body {@code answer} makes. */
    void answer(String path, Function<JsonNode, ObjectNode> answer) {
        bodies.put(path, answer);
    }

    int port() {
        return server.getAddress().getPort();
    }

    String caBundle() {
        return caBundle;
    }

    /** The reviews posted to {@code path}. */
    List<JsonNode> reviews(String path) {
        List<JsonNode> reviews = new ArrayList<>();
        for (Received r : received) {
            if (r.path().equals(path)) {
                reviews.add(r.review());
            }
        }
        return reviews;
    }

    static ObjectNode allow(JsonNode review) {
        ObjectNode r = JSON.createObjectNode();
        r.put("uid", review.path("request").path("uid").asText()).put("allowed", true);
        return r;
    }

    /** Refuses as controller-runtime's {@code admission.Denied} does: 403, reason Forbidden. */
    static ObjectNode deny(JsonNode review, String message) {
        ObjectNode r = allow(review).put("allowed", false);
        r.putObject("status").put("code", 403).put("reason", "Forbidden").put("message", message);
        return r;
    }

    /** Allows with a JSON Patch setting the label {@code key} to {@code value}. */
    static ObjectNode label(JsonNode review, String key, String value) {
        JsonNode labels = review.path("request").path("object").path("metadata").path("labels");
        ObjectNode op = JSON.createObjectNode().put("op", "add");
        if (labels.isObject()) {
            op.put("path", "/metadata/labels/" + key.replace("~", "~0").replace("/", "~1")).put("value", value);
        } else {
            op.put("path", "/metadata/labels").putObject("value").put(key, value);
        }
        ObjectNode r = allow(review).put("patchType", "JSONPatch");
        r.put("patch", Base64.getEncoder().encodeToString(("[" + op + "]").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return r;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
