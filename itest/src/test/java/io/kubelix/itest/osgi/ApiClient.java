package io.kubelix.itest.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import org.osgi.framework.BundleContext;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * HTTPS client of the server under test, used inside the probe: trusts the CA of the data directory
 * ({@code pki/ca.crt}) and authenticates with the admin token of {@code tokens.csv}, both written by
 * core-runtime at start-up. Reads port and data directory from the framework properties.
 */
final class ApiClient {
    static final String AGGREGATED_DISCOVERY = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

    private final String base;
    private final Path dataDir;
    private volatile HttpClient http;
    private volatile String token;

    ApiClient(BundleContext context) {
        this.base = "https://127.0.0.1:" + context.getProperty("kubelix.secure-port");
        this.dataDir = Path.of(context.getProperty("kubelix.data-dir"));
    }

    /** A response and its body, parsed when it is JSON. */
    record Response(int status, String contentType, String body) {
        JsonNode json() {
            try {
                return body.isEmpty() ? MissingNode.getInstance() : JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + ", " + contentType + "): " + body, e);
            }
        }

        /** The {@code reason} of a {@code Status} body, asserting that the body is one. */
        String statusReason() {
            JsonNode j = json();
            if (!"Status".equals(j.path("kind").asText())) {
                throw new AssertionError("expected a Status body, got " + status + ": " + body);
            }
            return j.path("reason").asText();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    /**
     * Waits until the server answers {@code /readyz} and has written the CA and token the client
     * needs (the data directory is prepared before Jetty listens).
     */
    void awaitReady(Duration timeout) {
        Poll.until(timeout, "GET /readyz answering 200", () -> {
            try {
                return client() != null && send(request("/readyz").GET(), false).status() == 200;
            } catch (UncheckedIOException | IllegalStateException e) {
                return false;
            }
        });
    }

    /**
     * Repeats {@code request} until its response satisfies {@code expected}, returning that
     * response; the failure after {@code timeout} shows the last one.
     */
    static Response await(Duration timeout, String what, java.util.function.Supplier<Response> request,
                          java.util.function.Predicate<Response> expected) {
        Response[] last = new Response[1];
        return Poll.until(timeout, what, () -> {
            last[0] = request.get();
            return expected.test(last[0]) ? last[0] : null;
        }, () -> String.valueOf(last[0]));
    }

    Response get(String path) {
        return send(request(path).GET(), true);
    }

    Response get(String path, String accept) {
        return send(request(path).setHeader("Accept", accept).GET(), true);
    }

    Response getWithoutCredentials(String path) {
        return send(request(path).GET(), false);
    }

    Response post(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)), true);
    }

    /**
     * Opens a watch ({@code ?watch=1} given by the caller); every line of the response, one JSON
     * watch event each, lands in {@link Watch#lines()}. Close it to end the watch.
     */
    Watch watch(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + adminToken())
                .GET()
                .build();
        return new Watch(client().sendAsync(request, HttpResponse.BodyHandlers.ofLines()));
    }

    /** An open watch: its status code, its lines so far, and {@link #close()} to cancel it. */
    static final class Watch implements AutoCloseable {
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final CompletableFuture<HttpResponse<Stream<String>>> response;
        private volatile boolean ended;

        private Watch(CompletableFuture<HttpResponse<Stream<String>>> response) {
            this.response = response;
            response.thenAcceptAsync(r -> {
                try (Stream<String> body = r.body()) {
                    body.forEach(lines::add);
                } catch (RuntimeException closed) {
                    // the watch was closed
                } finally {
                    ended = true;
                }
            });
        }

        /** Whether the stream has ended (by the server, or by {@link #close()}). */
        boolean ended() {
            return ended;
        }

        /** The status code, once the response headers are in. */
        int status(Duration timeout) throws Exception {
            return response.get(timeout.toMillis(), TimeUnit.MILLISECONDS).statusCode();
        }

        BlockingQueue<String> lines() {
            return lines;
        }

        /** Closes the response body, which closes the stream (HTTP/1.1: the connection) so the server ends the watch. */
        @Override
        public void close() {
            if (response.isDone() && !response.isCompletedExceptionally()) {
                response.join().body().close();
            } else {
                response.cancel(true);
            }
        }
    }

    Response delete(String path) {
        return send(request(path).DELETE(), true);
    }

    /** A request with {@code token} as its bearer token instead of the admin's. */
    Response getWithToken(String path, String token) {
        return send(request(path).header("Authorization", "Bearer " + token).GET(), false);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(REQUEST_TIMEOUT).header("Accept", "application/json");
    }

    private Response send(HttpRequest.Builder request, boolean authenticated) {
        if (authenticated) {
            request.header("Authorization", "Bearer " + adminToken());
        }
        try {
            HttpResponse<String> r = client().send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpClient client() {
        HttpClient c = http;
        if (c == null) {
            Path ca = dataDir.resolve("pki").resolve("ca.crt");
            if (!Files.isRegularFile(ca)) {
                throw new IllegalStateException(ca + " does not exist yet");
            }
            c = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .sslContext(trusting(ca))
                    .build();
            http = c;
        }
        return c;
    }

    /** The admin line of tokens.csv: {@code token,admin,admin,"system:masters"}. */
    String adminToken() {
        String t = token;
        if (t == null) {
            Path file = dataDir.resolve("tokens.csv");
            try {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                Optional<String> admin = lines.stream().filter(l -> l.contains("system:masters")).findFirst();
                t = admin.orElseThrow(() -> new AssertionError("no system:masters token in " + file + ": " + lines))
                        .split(",", 2)[0].trim();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            token = t;
        }
        return t;
    }

    private static SSLContext trusting(Path caCertificate) {
        try (InputStream in = Files.newInputStream(caCertificate)) {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("kubelix-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + caCertificate, e);
        }
    }
}
