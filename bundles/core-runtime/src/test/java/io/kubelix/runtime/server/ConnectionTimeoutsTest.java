package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.DataDirectory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube-apiserver's ReadHeaderTimeout and IdleTimeout on the server's HTTPS connector, scaled down
 * (a read-header deadline of 2 s, an idle timeout of 8 s) so that each is seen in seconds: a
 * keep-alive connection outlives the header deadline between requests, over HTTP/1.1 and HTTP/2,
 * while silent connections and half headers are closed at the deadline.
 */
class ConnectionTimeoutsTest {
    private static final Duration READ_HEADER = Duration.ofSeconds(2);
    private static final Duration IDLE = Duration.ofSeconds(8);
    private static final String GET = "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    @TempDir
    Path temp;
    private Server server;
    private ServerConnector connector;
    private SSLContext trustAll;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        connector = GenericAPIServer.httpsConnector(server,
                new ServingCertificates(DataDirectory.prepare(temp, List.of()).servingKeys(), List.of()),
                TlsProvider.choose("jdk"), TlsOptions.parse("VersionTLS12", ""), 250, READ_HEADER, IDLE);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        // Answers with the connection's id, so a client sees whether its connection was kept.
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.write(true, ByteBuffer.wrap(request.getConnectionMetaData().getId()
                        .getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
            }
        });
        server.start();
        trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a) { }
            public void checkServerTrusted(X509Certificate[] c, String a) { }
            public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, null);
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void anHttp11KeepAliveConnectionIdleLongerThanTheHeaderDeadlineServesItsNextRequest() throws Exception {
        try (SSLSocket s = tls()) {
            String first = exchange(s);
            Thread.sleep(READ_HEADER.multipliedBy(5).dividedBy(2).toMillis());
            assertEquals(first, exchange(s), "the same connection answers after 2.5 header deadlines of idleness");
            long since = System.nanoTime();
            assertClosedWithin(s, IDLE.plusSeconds(2));
            assertTrue(Duration.ofNanos(System.nanoTime() - since).compareTo(IDLE.minusMillis(500)) >= 0,
                    "an idle keep-alive connection is closed after the idle timeout, not before");
        }
    }

    @Test
    void anHttp2ConnectionIdleLongerThanTheHeaderDeadlineServesItsNextRequest() throws Exception {
        HttpClient http2 = HttpClient.newBuilder().sslContext(trustAll).version(HttpClient.Version.HTTP_2).build();
        HttpRequest get = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + connector.getLocalPort() + "/x"))
                .timeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> first = http2.send(get, HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, first.version());
        Thread.sleep(READ_HEADER.multipliedBy(5).dividedBy(2).toMillis());
        HttpResponse<String> second = http2.send(get, HttpResponse.BodyHandlers.ofString());
        assertEquals(first.body(), second.body(), "the same HTTP/2 connection answers after the header deadline");
    }

    @Test
    void aConnectionThatSendsNothingOrHalfAHandshakeIsClosedAtTheHeaderDeadline() throws Exception {
        try (Socket silent = new Socket("127.0.0.1", connector.getLocalPort());
             Socket halfHandshake = new Socket("127.0.0.1", connector.getLocalPort())) {
            halfHandshake.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00});
            assertClosedWithin(silent, READ_HEADER.plusSeconds(2));
            assertClosedWithin(halfHandshake, READ_HEADER.plusSeconds(2));
        }
    }

    @Test
    void halfAHeaderIsClosedAtTheDeadlineFirstOrAfterAKeptAliveRequest() throws Exception {
        try (SSLSocket first = tls(); SSLSocket later = tls()) {
            first.getOutputStream().write("GET /x HTTP/1.1\r\nHost: 127".getBytes(StandardCharsets.US_ASCII));
            exchange(later);
            Thread.sleep(READ_HEADER.dividedBy(2).toMillis());
            // Bytes that trickle in do not put the deadline off.
            first.getOutputStream().write(".0".getBytes(StandardCharsets.US_ASCII));
            later.getOutputStream().write("GET /x HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
            assertClosedWithin(first, READ_HEADER.plusSeconds(1));
            assertClosedWithin(later, READ_HEADER.plusSeconds(1));
        }
    }

    private SSLSocket tls() throws IOException {
        SSLSocket s = (SSLSocket) trustAll.getSocketFactory().createSocket("127.0.0.1", connector.getLocalPort());
        s.setEnabledProtocols(new String[] {"TLSv1.3"});
        s.startHandshake();
        return s;
    }

    /** Sends a GET on an HTTP/1.1 connection and returns the body of its 200, the connection's id. */
    private static String exchange(SSLSocket s) throws IOException {
        s.setSoTimeout(10_000);
        s.getOutputStream().write(GET.getBytes(StandardCharsets.US_ASCII));
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        assertTrue(text.startsWith("HTTP/1.1 200"), text);
        int length = Integer.parseInt(text.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
        return new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }

    /** Reads until the server closes {@code s} (an end of stream or a reset), failing after {@code within}. */
    private static void assertClosedWithin(Socket s, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        s.setSoTimeout(100);
        byte[] buffer = new byte[1024];
        while (System.nanoTime() < deadline) {
            try {
                if (s.getInputStream().read(buffer) < 0) {
                    return;
                }
            } catch (SocketTimeoutException stillOpen) {
                // read again
            } catch (IOException reset) {
                return;
            }
        }
        throw new AssertionError("still open after " + within.toMillis() + " ms");
    }
}
