package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the server holds for clients that stop talking, as a hostile or broken client leaves it,
 * counted through what the server itself reports ({@code /kubelix/watchcache}): HTTP/1.1 watches
 * whose clients vanished are released within seconds though no event comes, connections that send
 * nothing are closed after about 32 s (kube-apiserver's ReadHeaderTimeout) while requests keep
 * being served and a keep-alive connection quiet as long still serves its next request (its
 * IdleTimeout is 90 s), and a bearer token of 64 KiB fits in the headers, as in kube-apiserver.
 */
class ConnectionReapingIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final String WATCH = "/api/v1/namespaces/default/configmaps?watch=true";
    private static Path work;
    private static KubelixServer server;
    private static KubeApi api;

    @BeforeAll
    static void start() throws Exception {
        work = KubelixServer.workDirectory("connection-reaping");
        server = KubelixServer.startDistribution(work, READY_TIMEOUT);
        api = new KubeApi(server.kubeconfig());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void http11WatchesAbortedByTheirClientsAreReleasedWithinSeconds() throws Exception {
        long baseline = watchers();
        List<SSLSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 500; i++) {
                SSLSocket s = (SSLSocket) api.ssl.getSocketFactory().createSocket("127.0.0.1", server.port());
                s.setSoTimeout(30_000);
                sockets.add(s);
                s.getOutputStream().write(("GET " + WATCH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + api.token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                String head = readHead(s.getInputStream());
                assertTrue(head.startsWith("HTTP/1.1 200"), head);
            }
            long open = watchers();
            assertTrue(open >= baseline + 500, "the server counts the 500 watches: " + open + ", baseline " + baseline);
        } finally {
            // Half go with a reset, half with TLS's close_notify and a FIN.
            for (int i = 0; i < sockets.size(); i++) {
                if (i % 2 == 0) {
                    sockets.get(i).setSoLinger(true, 0);
                }
                sockets.get(i).close();
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long now = watchers();
        while (now > baseline && System.nanoTime() < deadline) {
            Thread.sleep(200);
            now = watchers();
        }
        assertTrue(now <= baseline, "watchers back to the baseline " + baseline + " within 10 s: " + now);
    }

    @Test
    void silentConnectionsAreClosedWithin40SecondsWhileRequestsAreServed() throws Exception {
        List<Socket> silent = new ArrayList<>();
        SSLSocket keptAlive = (SSLSocket) api.ssl.getSocketFactory().createSocket("127.0.0.1", server.port());
        keptAlive.setSoTimeout(30_000);
        assertEquals("ok", healthz(keptAlive));
        long started = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            Socket s = new Socket("127.0.0.1", server.port());
            s.setSoTimeout(500);
            if (i % 2 == 1) {
                // The start of a TLS record that never completes.
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01});
            }
            silent.add(s);
        }
        List<Socket> open = new ArrayList<>(silent);
        while (!open.isEmpty() && System.nanoTime() - started < Duration.ofSeconds(45).toNanos()) {
            assertEquals(200, server.get("/api/v1/namespaces", api.token).statusCode(), "requests are served meanwhile");
            open.removeIf(ConnectionReapingIT::closedByServer);
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        assertTrue(open.isEmpty(), open.size() + " of 100 silent connections still open after " + seconds + " s");
        assertTrue(seconds <= 40, "closed within 40 s: " + seconds);
        for (Socket s : silent) {
            s.close();
        }
        try (keptAlive) {
            assertEquals("ok", healthz(keptAlive), "a keep-alive connection quiet for " + seconds + " s is served");
        }
    }

    /** GET /healthz on an HTTP/1.1 connection that stays open; the body of its 200. */
    private static String healthz(SSLSocket s) throws IOException {
        s.getOutputStream().write(("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + api.token
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        String head = readHead(s.getInputStream());
        assertTrue(head.startsWith("HTTP/1.1 200"), head);
        int length = Integer.parseInt(head.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
        return new String(s.getInputStream().readNBytes(length), StandardCharsets.UTF_8);
    }

    @Test
    void aBearerTokenOf64KiBAuthenticates() throws Exception {
        SecureRandom random = new SecureRandom();
        StringBuilder token = new StringBuilder();
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        while (token.length() < 64 * 1024) {
            token.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        Files.writeString(server.dataDir().resolve("tokens.csv"), token + ",big-token,big-token,\"system:masters\"\n",
                StandardOpenOption.APPEND);
        // The token file is read again when it changes.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpResponse<String> r;
        do {
            Thread.sleep(300);
            r = server.get("/api/v1/namespaces", token.toString());
            assertTrue(r.statusCode() != 431, "the header is not too large: " + r.body());
        } while (r.statusCode() != 200 && System.nanoTime() < deadline);
        assertEquals(200, r.statusCode(), r.body());
    }

    private static boolean closedByServer(Socket s) {
        try {
            int read;
            do {
                read = s.getInputStream().read(new byte[1024]);
            } while (read > 0);
            return read < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static long watchers() throws Exception {
        HttpResponse<String> r = server.get("/kubelix/watchcache", api.token);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode doc = KubeApi.JSON.readTree(r.body());
        return doc.path("watchers").asLong();
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (!bytes.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after: " + bytes.toString(StandardCharsets.ISO_8859_1));
            }
            bytes.write(b);
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }
}
