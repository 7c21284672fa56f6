package io.kubelix.itest.e2e;

import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
            assertEquals(250, maxConcurrentStreams(server), "kube-apiserver's default streams per HTTP/2 connection");
        }
    }

    @Test
    void jdkKeepsTheJdksTls() throws Exception {
        Path work = KubelixServer.workDirectory("tls-jdk");
        try (KubelixServer server = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")), work,
                READY_TIMEOUT, "--tls-provider=jdk", "--http2-max-streams-per-connection", "1000")) {
            assertTrue(server.log().contains("TLS provider: the JDK's (as --tls-provider=jdk asks)"), server.log());
            assertServes(server, work);
            assertEquals(1000, maxConcurrentStreams(server), "as --http2-max-streams-per-connection asks");
        }
    }

    @Test
    void tlsMinVersionRefusesOlderClients() throws Exception {
        Path work = KubelixServer.workDirectory("tls-min-version");
        try (KubelixServer server = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")), work,
                READY_TIMEOUT, "--tls-min-version=VersionTLS13")) {
            assertEquals("TLSv1.3", handshake(server.port(), "TLSv1.3"));
            assertThrows(javax.net.ssl.SSLException.class, () -> handshake(server.port(), "TLSv1.2"),
                    "a TLS 1.2 client is refused");
            assertServes(server, work);
        }
    }

    /** The protocol a handshake with only {@code protocol} enabled agrees on (the certificate is not checked). */
    private static String handshake(int port, String protocol) throws Exception {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        }}, null);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) context.getSocketFactory()
                .createSocket("127.0.0.1", port)) {
            socket.setEnabledProtocols(new String[] {protocol});
            socket.startHandshake();
            return socket.getSession().getProtocol();
        }
    }

    @Test
    void malformedFlagsStopTheStart() throws Exception {
        Path bin = Path.of(System.getProperty("kubelix.itest.distribution")).resolve("bin").resolve("kubelix");
        assertRefused(bin, "invalid --tls-provider \"openssl\": must be auto, conscrypt or jdk", "--tls-provider=openssl");
        assertRefused(bin, "invalid --http2-max-streams-per-connection \"-1\": must be an integer from 0 to 1000000",
                "--http2-max-streams-per-connection=-1");
        assertRefused(bin, "invalid --tls-min-version \"TLS1.2\": must be one of VersionTLS10, VersionTLS11, "
                + "VersionTLS12, VersionTLS13", "--tls-min-version=TLS1.2");
    }

    private static void assertServes(KubelixServer server, Path work) throws Exception {
        String coreV1 = server.kubectl(work).ok("get", "--raw", "/api/v1").stdout();
        assertTrue(coreV1.contains("\"name\":\"namespaces\""), coreV1);
        HttpResponse<String> ready = server.get("/readyz", null);
        assertEquals(200, ready.statusCode(), ready.body());
        assertEquals(HttpClient.Version.HTTP_2, ready.version(), "ALPN chose h2");
    }

    /**
     * SETTINGS_MAX_CONCURRENT_STREAMS as the server announces it: an HTTP/2 connection (ALPN h2)
     * opened by hand, the client preface sent, and the server's first SETTINGS frame read.
     */
    private static int maxConcurrentStreams(KubelixServer server) throws Exception {
        javax.net.ssl.SSLSocketFactory factory = KubelixServer.trusting(server.caCertificate()).getSocketFactory();
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) factory.createSocket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            javax.net.ssl.SSLParameters params = socket.getSSLParameters();
            params.setApplicationProtocols(new String[]{"h2"});
            socket.setSSLParameters(params);
            socket.startHandshake();
            assertEquals("h2", socket.getApplicationProtocol());
            java.io.OutputStream out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[]{0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
            out.flush();
            java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            while (true) {
                int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
                int type = in.readUnsignedByte();
                int flags = in.readUnsignedByte();
                in.readInt(); // stream id
                byte[] payload = in.readNBytes(length);
                if (type == 4 && (flags & 1) == 0) {
                    java.nio.ByteBuffer settings = java.nio.ByteBuffer.wrap(payload);
                    while (settings.remaining() >= 6) {
                        int id = settings.getShort() & 0xffff;
                        int value = settings.getInt();
                        if (id == 3) {
                            return value;
                        }
                    }
                    throw new AssertionError("the server's SETTINGS has no MAX_CONCURRENT_STREAMS");
                }
            }
        }
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
