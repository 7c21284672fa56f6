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
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTPS connector the server listens with: kube-apiserver's header limit and its reaping of silent connections. */
class ConnectorLimitsTest {
    @TempDir
    Path temp;
    private Server server;
    private ServerConnector connector;
    private HttpClient http1;
    private HttpClient http2;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        connector = GenericAPIServer.httpsConnector(server,
                new ServingCertificates(DataDirectory.prepare(temp, List.of()).servingKeys(), List.of()),
                TlsProvider.choose("jdk"), TlsOptions.parse("VersionTLS12", ""), 250);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String auth = request.getHeaders().get("Authorization");
                response.write(true, java.nio.ByteBuffer.wrap(Integer.toString(auth == null ? 0 : auth.length())
                        .getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
            }
        });
        server.start();
        SSLContext trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a) { }
            public void checkServerTrusted(X509Certificate[] c, String a) { }
            public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, null);
        http1 = HttpClient.newBuilder().sslContext(trustAll).version(HttpClient.Version.HTTP_1_1).build();
        http2 = HttpClient.newBuilder().sslContext(trustAll).version(HttpClient.Version.HTTP_2).build();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void a64KiBBearerTokenIsServedOverBothProtocols() throws Exception {
        String header = "Bearer " + "t".repeat(64 * 1024);
        for (HttpClient client : List.of(http1, http2)) {
            HttpResponse<String> r = client.send(get().header("Authorization", header).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.version() + ": " + r.body());
            assertEquals(Integer.toString(header.length()), r.body(), r.version() + " saw the whole header");
        }
    }

    @Test
    void silentConnectionsAreClosedAfterAbout32SecondsWhileRequestsAreServed() throws Exception {
        List<Socket> silent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Socket s = new Socket("127.0.0.1", connector.getLocalPort());
            s.setSoTimeout(60_000);
            if (i % 2 == 1) {
                // Half a TLS handshake's worth of bytes, never finished.
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00});
            }
            silent.add(s);
        }
        long started = System.nanoTime();
        assertEquals(200, http2.send(get().build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        for (Socket s : silent) {
            try (s) {
                InputStream in = s.getInputStream();
                int b;
                do {
                    b = in.read();
                } while (b >= 0);
            } catch (java.net.SocketException closed) {
                // reset: closed too
            }
            assertEquals(200, http1.send(get().build(), HttpResponse.BodyHandlers.ofString()).statusCode(),
                    "requests are served while silent connections wait");
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        assertTrue(seconds >= 25 && seconds <= 40, "closed after " + seconds + " s");
    }

    private HttpRequest.Builder get() {
        return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + connector.getLocalPort() + "/healthz"))
                .timeout(Duration.ofSeconds(20));
    }
}
