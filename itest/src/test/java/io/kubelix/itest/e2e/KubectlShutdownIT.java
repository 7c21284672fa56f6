package io.kubelix.itest.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM to {@code bin/kubelix} under load, as kube-apiserver's graceful termination: {@code /readyz}
 * fails at once while requests are still served for {@code --shutdown-delay-duration}, open watches
 * end cleanly, requests in flight finish, no request sees its connection reset (a request the server
 * did not take is refused: connection refused, or HTTP/2's GOAWAY), and the process exits 0 within seconds.
 */
class KubectlShutdownIT {
    private static final Duration DELAY = Duration.ofSeconds(2);
    private KubelixServer server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void sigtermUnderLoadDrainsAndExitsZero() throws Exception {
        Path work = KubelixServer.workDirectory("shutdown");
        server = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution")), work,
                KubectlSuite.READY_TIMEOUT, "--shutdown-delay-duration", "2s");
        Kubectl kubectl = server.kubectl(work);
        server.awaitServed(kubectl, KubectlSuite.READY_TIMEOUT, "configmaps");
        String token = Files.readAllLines(server.dataDir().resolve("tokens.csv"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("system:masters")).map(l -> l.split(",", 2)[0].trim()).findFirst().orElseThrow();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(KubelixServer.trusting(server.caCertificate())).connectTimeout(Duration.ofSeconds(5)).build();
        URI base = URI.create("https://127.0.0.1:" + server.port());

        // An open watch, read to its end.
        ExecutorService threads = Executors.newFixedThreadPool(4);
        Future<String> watch = threads.submit(() -> {
            HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(base.resolve(
                            "/api/v1/namespaces/default/configmaps?watch=true")).header("Authorization", "Bearer " + token).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                in.readAllBytes();
            }
            return "ended with " + r.statusCode();
        });

        // Load: three clients reading until the server is gone; what each request got.
        AtomicBoolean stopped = new AtomicBoolean();
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 3; i++) {
            threads.submit(() -> {
                while (!stopped.get()) {
                    try {
                        HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve(
                                        "/api/v1/namespaces/default/configmaps")).header("Authorization", "Bearer " + token)
                                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                        outcomes.computeIfAbsent(Integer.toString(r.statusCode()), k -> new AtomicInteger()).incrementAndGet();
                    } catch (ConnectException e) {
                        // The server no longer listens: what a client of any stopped server sees.
                        outcomes.computeIfAbsent("refused", k -> new AtomicInteger()).incrementAndGet();
                        Thread.sleep(20);
                    } catch (IOException e) {
                        if (String.valueOf(e.getMessage()).contains("GOAWAY received")) {
                            // HTTP/2's clean refusal: the stream was not processed (it is above the GOAWAY's last
                            // stream id), so a client may send it again; Go's clients (kubectl) do so by themselves,
                            // the JDK's client reports it.
                            outcomes.computeIfAbsent("goaway", k -> new AtomicInteger()).incrementAndGet();
                        } else if (e instanceof javax.net.ssl.SSLHandshakeException
                                && String.valueOf(e.getMessage()).contains("Remote host terminated the handshake")) {
                            // A new connection accepted as the server stopped listening, closed before its TLS
                            // handshake finished: no request was sent on it, so none was lost; the client
                            // finds the server gone as with a refused connection. (Go's server would still
                            // finish such a handshake and serve the request.)
                            outcomes.computeIfAbsent("handshake-cut", k -> new AtomicInteger()).incrementAndGet();
                            Thread.sleep(20);
                        } else {
                            failures.add(e.toString());
                        }
                    }
                }
                return null;
            });
        }
        Thread.sleep(1000);
        assertTrue(outcomes.getOrDefault("200", new AtomicInteger()).get() > 0, "the load is served: " + outcomes);

        long begin = System.nanoTime();
        ExecutorService signal = Executors.newSingleThreadExecutor();
        Future<Integer> exit = signal.submit(() -> server.terminate(Duration.ofSeconds(30)));
        // During the delay the server answers, but is not ready.
        HttpResponse<String> readyz = server.await("/readyz to fail", Duration.ofSeconds(2),
                () -> server.get("/readyz?verbose", null), r -> r.statusCode() != 200);
        assertTrue(readyz.body().contains("[-]shutdown failed"), readyz.body());
        assertEquals(200, server.get("/api/v1/namespaces/default/configmaps", token).statusCode(),
                "requests are served during --shutdown-delay-duration");

        int code = exit.get(40, TimeUnit.SECONDS);
        long tookMillis = (System.nanoTime() - begin) / 1_000_000;
        stopped.set(true);
        threads.shutdown();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
        signal.shutdown();

        assertEquals(0, code, "a graceful shutdown exits 0\n" + server.log());
        assertTrue(tookMillis >= DELAY.toMillis() && tookMillis < DELAY.toMillis() + 8000,
                "the delay, then a quick drain: " + tookMillis + " ms\n" + server.log());
        assertEquals("ended with 200", watch.get(5, TimeUnit.SECONDS), "the watch ended cleanly");
        assertEquals(List.of(), failures, "no request failed but by finding the server gone; outcomes: " + outcomes);
        assertTrue(server.log().contains("Kubelix is stopping: stopped serving"), server.log());
    }
}
