package io.kubelix.junit;

import io.kubelix.junit.impl.SpareServers;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link KubelixServer} on its own, several times in one JVM, printing what docs/benchmarks.md
 * reports: the first start, a start in a warm JVM (with the first one's PKI), and the wait for a
 * server that was started ahead of need ({@code kubelix.junit.prestart}).
 */
class KubelixServerStartupTest {

    @Test
    void startsAgainInAWarmJvmAndAheadOfNeed() throws Exception {
        long cold;
        try (KubelixServer first = KubelixServer.start()) {
            cold = first.startupTime().toMillis();
            answers(first);
        }
        try (SpareServers spares = new SpareServers()) {
            long asked = System.nanoTime();
            KubelixServer warm = spares.take(Map.of());
            long warmMillis = (System.nanoTime() - asked) / 1_000_000;
            answers(warm);
            // what a test class runs while the spare starts
            Thread.sleep(Math.max(2 * warmMillis, 5_000));
            warm.close();

            asked = System.nanoTime();
            KubelixServer spare = spares.take(Map.of());
            long waited = (System.nanoTime() - asked) / 1_000_000;
            answers(spare);
            assertNotEquals(warm.url(), spare.url(), "a server of its own");
            spare.close();
            System.out.println("kubelix-junit start-up: first " + cold + " ms, warm JVM " + warmMillis
                    + " ms, waited for a prestarted server " + waited + " ms");
        }
    }

    private static void answers(KubelixServer server) throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(server.sslContext()).build();
        HttpResponse<String> version = client.send(HttpRequest.newBuilder(server.url().resolve("version"))
                .header("Authorization", "Bearer " + server.adminToken()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, version.statusCode(), version.body());
        assertTrue(version.body().contains("\"gitVersion\""), version.body());
    }
}
