package io.kubelix.itest.e2e;

import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who encrypts HTTPS ({@code --tls-provider}): Conscrypt by default where it loads (it does on the
 * machines this suite runs on), the JDK's when asked; either way kubectl and an HTTP/2 client are
 * served. Malformed TLS and HTTP/2 flags stop {@code bin/kubelix} with a message naming them.
 */
class TlsProviderIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void byDefaultConscryptServesKubectlAndHttp2() throws Exception {
        Path work = KubelixServer.workDirectory("tls-auto");
        try (KubelixServer server = KubelixServer.startDistribution(work, READY_TIMEOUT)) {
            assertTrue(server.log().matches("(?s).*TLS provider: Conscrypt \\d+\\.\\d+\\.\\d+ \\(BoringSSL\\).*"),
                    server.log());
            assertServes(server, work);
        }
    }

    @Test
    void jdkKeepsTheJdksTls() throws Exception {
        Path work = KubelixServer.workDirectory("tls-jdk");
        try (KubelixServer server = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")), work,
                READY_TIMEOUT, "--tls-provider=jdk", "--http2-max-streams-per-connection", "1000")) {
            assertTrue(server.log().contains("TLS provider: the JDK's (as --tls-provider=jdk asks)"), server.log());
            assertServes(server, work);
        }
    }

    @Test
    void malformedFlagsStopTheStart() throws Exception {
        Path bin = Path.of(System.getProperty("kubelix.itest.distribution")).resolve("bin").resolve("kubelix");
        assertRefused(bin, "invalid --tls-provider \"openssl\": must be auto, conscrypt or jdk", "--tls-provider=openssl");
        assertRefused(bin, "invalid --http2-max-streams-per-connection \"-1\": must be an integer from 0 to 1000000",
                "--http2-max-streams-per-connection=-1");
    }

    private static void assertServes(KubelixServer server, Path work) throws Exception {
        String coreV1 = server.kubectl(work).ok("get", "--raw", "/api/v1").stdout();
        assertTrue(coreV1.contains("\"name\":\"namespaces\""), coreV1);
        HttpResponse<String> ready = server.get("/readyz", null);
        assertEquals(200, ready.statusCode(), ready.body());
        assertEquals(HttpClient.Version.HTTP_2, ready.version(), "ALPN chose h2");
    }

    private static void assertRefused(Path bin, String message, String... flags) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(bin.toString()));
        command.addAll(java.util.List.of(flags));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.waitFor(), out);
        assertTrue(out.contains(message), out);
    }
}
