package io.kubelix.junit;

import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link KubelixServer} on its own, twice in one JVM: the second server (warm JVM, cached PKI) is
 * what docs/benchmarks.md measures; both print their start-up time to the test's output.
 */
class KubelixServerStartupTest {

    @Test
    void startsTwiceInOneJvmAndAnswers() throws Exception {
        for (int i = 1; i <= 2; i++) {
            try (KubelixServer server = KubelixServer.start()) {
                System.out.println("kubelix-junit start-up " + i + ": " + server.startupTime().toMillis() + " ms");
                HttpClient client = HttpClient.newBuilder().sslContext(server.sslContext()).build();
                HttpResponse<String> version = client.send(HttpRequest.newBuilder(server.url().resolve("version"))
                        .header("Authorization", "Bearer " + server.adminToken()).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, version.statusCode(), version.body());
                assertTrue(version.body().contains("\"gitVersion\""), version.body());
            }
        }
    }
}
