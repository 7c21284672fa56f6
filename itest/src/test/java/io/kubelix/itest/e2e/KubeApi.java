package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Raw Kubernetes API calls with java.net.http over HTTP/2, authenticated as the admin
 * kubeconfig says (bearer token, CA data): the reference the informer is compared with, and
 * watches read line by line.
 */
final class KubeApi {
    static final ObjectMapper JSON = new ObjectMapper();

    final String kubeconfigYaml;
    final URI server;
    final String token;
    final SSLContext ssl;
    private final HttpClient http;

    KubeApi(Path kubeconfig) throws IOException {
        kubeconfigYaml = Files.readString(kubeconfig, StandardCharsets.UTF_8);
        JsonNode kc = new ObjectMapper(new YAMLFactory()).readTree(kubeconfigYaml);
        JsonNode cluster = kc.path("clusters").path(0).path("cluster");
        server = URI.create(cluster.path("server").asText());
        token = kc.path("users").path(0).path("user").path("token").asText();
        ssl = trusting(Base64.getDecoder().decode(cluster.path("certificate-authority-data").asText()));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    int port() {
        return server.getPort();
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return send("GET", path, null, null, 200);
    }

    JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        return send("POST", path, body, "application/json", 201);
    }

    JsonNode mergePatch(String path, JsonNode body) throws IOException, InterruptedException {
        return send("PATCH", path, body, "application/merge-patch+json", 200);
    }

    JsonNode put(String path, JsonNode body) throws IOException, InterruptedException {
        return send("PUT", path, body, "application/json", 200);
    }

    JsonNode delete(String path) throws IOException, InterruptedException {
        return send("DELETE", path, null, null, 200);
    }

    /** Sends and returns the JSON answer; any other status than {@code expected} is an AssertionError with the body. */
    JsonNode send(String method, String path, JsonNode body, String contentType, int expected)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = request(path).timeout(Duration.ofSeconds(20));
        if (body != null) {
            b.header("Content-Type", contentType)
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (r.statusCode() != expected) {
            throw new AssertionError(method + " " + path + ": expected " + expected + ", got " + r.statusCode() + " "
                    + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** Opens a watch ({@code path} with its query, {@code watch=true} included) and reads it on a daemon thread. */
    WatchStream watch(String path) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(request(path).build(), HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            String body = new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
            throw new AssertionError("watch " + path + ": " + r.statusCode() + " " + body);
        }
        if (r.version() != HttpClient.Version.HTTP_2) {
            throw new AssertionError("watch " + path + " was not served over HTTP/2 but " + r.version());
        }
        return new WatchStream(path, r.body());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(server.resolve(path))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json");
    }

    static ObjectNode configMap(String name, String... keyValues) {
        ObjectNode cm = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", name);
        ObjectNode data = cm.putObject("data");
        for (int i = 0; i < keyValues.length; i += 2) {
            data.put(keyValues[i], keyValues[i + 1]);
        }
        return cm;
    }

    static long rv(JsonNode object) {
        return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
    }

    private static SSLContext trusting(byte[] caPem) {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("kubelix-ca",
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(caPem)));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust the kubeconfig's CA", e);
        }
    }

    /** A watch's events, parsed line by line as they arrive; {@link #next} waits for one. */
    static final class WatchStream implements AutoCloseable {
        private static final JsonNode END = JSON.createObjectNode().put("type", "<end of stream>");
        private final String path;
        private final InputStream body;
        private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        private volatile boolean ended;
        private volatile Throwable failure;

        private WatchStream(String path, InputStream body) {
            this.path = path;
            this.body = body;
            Thread t = new Thread(this::read, "watch-reader " + path);
            t.setDaemon(true);
            t.start();
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.isBlank()) {
                        events.add(JSON.readTree(line));
                    }
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
            } finally {
                ended = true;
                events.add(END);
            }
        }

        /** The next event, or null when none came within {@code timeout}; AssertionError when the stream ended. */
        JsonNode next(Duration timeout) throws InterruptedException {
            JsonNode e = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (e == END) {
                events.add(END);
                throw new AssertionError("watch " + path + " ended" + (failure != null ? ": " + failure : ""));
            }
            return e;
        }

        /** The next event; AssertionError when none came within {@code timeout}. */
        JsonNode expect(Duration timeout) throws InterruptedException {
            JsonNode e = next(timeout);
            if (e == null) {
                throw new AssertionError("watch " + path + ": no event within " + timeout);
            }
            return e;
        }

        /** Whether the stream ended (by the server, or a failure) within {@code timeout}, events left unread or not. */
        boolean awaitEnd(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!ended && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            return ended;
        }

        Throwable failure() {
            return failure;
        }

        @Override
        public void close() {
            try {
                body.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }
}
