package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube-apiserver's self-defence with {@code --request-timeout=2s --max-requests-inflight=1}: a read
 * that waits for a resourceVersion the server has not reached (it would wait 3 s) is answered 504
 * Timeout after 2 s, and while it holds the one read seat another user's read is answered 429 with
 * {@code Retry-After}, which kubectl honours by retrying; {@code system:masters} is never refused.
 * The in-flight limits apply as they are only without priority and fairness, as in kube-apiserver.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlRequestLimitsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A list no cache can answer yet: it waits for a revision far ahead (up to 3 s), holding its seat. */
    private static final String SLOW_LIST = "/api/v1/configmaps?resourceVersion=999999999&resourceVersionMatch=NotOlderThan";
    private KubelixServer server;
    private Kubectl kubectl;
    private String adminToken;

    @BeforeAll
    void start() throws Exception {
        Path work = KubelixServer.workDirectory("limits");
        server = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution")), work,
                KubectlSuite.READY_TIMEOUT, "--request-timeout", "2s", "--max-requests-inflight", "1",
                "--enable-priority-and-fairness=false");
        kubectl = server.kubectl(work);
        server.awaitServed(kubectl, KubectlSuite.READY_TIMEOUT, "configmaps");
        adminToken = Files.readAllLines(server.dataDir().resolve("tokens.csv"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("system:masters")).map(l -> l.split(",", 2)[0].trim()).findFirst().orElseThrow();
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRequestPastTheRequestTimeoutIsKubes504() throws Exception {
        // Until its watch cache serves, the storage answers such a read at once (504 "Too large resource
        // version"); from then on the read waits, and the request timeout answers it.
        HttpResponse<String> r;
        long millis;
        int attempts = 0;
        do {
            long began = System.nanoTime();
            r = server.get(SLOW_LIST, adminToken);
            millis = (System.nanoTime() - began) / 1_000_000;
            if (!r.body().contains("allotted timeout")) {
                Thread.sleep(500);
            }
        } while (!r.body().contains("allotted timeout") && ++attempts < 20);
        assertEquals(504, r.statusCode(), r.body());
        assertTrue(millis >= 1900 && millis < 2900, "answered at the 2 s timeout: " + millis + " ms");
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Timeout", status.path("reason").asText());
        assertEquals("Timeout: request did not complete within the allotted timeout", status.path("message").asText());

        Kubectl.Result k = kubectl.run("get", "--raw", SLOW_LIST);
        assertEquals(1, k.exitCode(), k.toString());
        assertTrue(k.stderr().contains("Error from server (Timeout): Timeout: request did not complete within the allotted timeout"),
                k.stderr());
        assertTrue(terminations("504") >= 2);
    }

    @Test
    void aReadBeyondTheInFlightLimitIs429WithRetryAfterAndKubectlRetries() throws Exception {
        // The holder runs on a thread of its own (a blocking send on the common pool can starve the HTTP
        // client's own stages), and is sent again should it end before the seat was seen taken.
        java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.Future<HttpResponse<String>> holder = null;
        HttpResponse<String> refused = null;
        for (int attempt = 0; attempt < 5 && refused == null; attempt++) {
            holder = thread.submit(() -> server.get(SLOW_LIST, adminToken));
            long until = System.nanoTime() + 1_500_000_000L;
            while (refused == null && System.nanoTime() < until && !holder.isDone()) {
                HttpResponse<String> r = server.getWithHeaders("/api/v1/namespaces/default/configmaps", adminToken,
                        "Impersonate-User", "someone");
                refused = r.statusCode() == 429 ? r : null;
                Thread.sleep(50);
            }
        }
        thread.shutdown();
        assertTrue(refused != null, "a read was refused while the one read seat was taken\n" + server.log());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
        assertEquals("Too many requests, please try again later.\n", refused.body());
        assertEquals(200, server.get("/api/v1/namespaces/default/configmaps", adminToken).statusCode(),
                "system:masters is served beyond the limit");
        // kubectl waits the Retry-After and tries again: once the seat is free it gets its answer, here 403.
        Kubectl.Result k = kubectl.run("get", "configmaps", "--as=someone");
        assertTrue(k.stderr().contains("configmaps is forbidden: User \"someone\" cannot list resource \"configmaps\""),
                k.toString());
        holder.get(10, TimeUnit.SECONDS);
        assertTrue(terminations("429") >= 1);
    }

    private double terminations(String code) throws Exception {
        return PrometheusScrape.parse(kubectl.ok("get", "--raw", "/metrics").stdout(), false)
                .sum("apiserver_request_terminations_total", Map.of("code", code, "resource", "configmaps"));
    }
}
