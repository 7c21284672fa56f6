package io.kubelix.aggregator;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.UpgradedConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The upgrade proxy against a tiny TLS extension server that switches to an echo protocol: the
 * 101 reaches the client, then bytes flow both ways; a refused upgrade is an ordinary response.
 */
class UpgradeAwareProxyTest {
    private static final String SERVER_NAME = TlsBackend.SERVER_NAME;
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("devs"), Map.of());

    private final CompletableFuture<String> backendSaw = new CompletableFuture<>();
    private SSLServerSocket backend;
    private String caBundle;

    @BeforeEach
    void startBackend() throws Exception {
        TlsBackend started = TlsBackend.start();
        backend = started.socket();
        caBundle = started.caBundle();
    }

    @AfterEach
    void stopBackend() throws IOException {
        backend.close();
    }

    @Test
    void aSwitchedConnectionIsRelayedBothWays() throws Exception {
        serveOnce("HTTP/1.1 101 Switching Protocols\r\nUpgrade: SPDY/3.1\r\nConnection: Upgrade\r\n\r\nhello;", true);
        FakeResponse response = new FakeResponse();

        UpgradeAwareProxy.proxy(target(), transports().sslContext(key()), SERVER_NAME,
                request("POST", Map.of("Connection", List.of("Upgrade"), "Upgrade", List.of("SPDY/3.1"),
                        "Authorization", List.of("Bearer secret"), "X-Stream-Protocol-Version", List.of("v4.channel.k8s.io"))),
                ALICE, response);

        String head = backendSaw.get(5, TimeUnit.SECONDS);
        assertTrue(head.startsWith("POST /api/v1/namespaces/ns/pods/p/exec?command=sh HTTP/1.1\r\n"), head);
        assertTrue(head.contains("Connection: Upgrade\r\n") && head.contains("Upgrade: SPDY/3.1\r\n"), head);
        assertTrue(head.contains("X-Stream-Protocol-Version: v4.channel.k8s.io\r\n"), head);
        assertTrue(head.contains("X-Remote-User: alice\r\n") && head.contains("X-Remote-Group: devs\r\n"), head);
        assertFalse(head.contains("secret"), head);
        assertEquals(101, response.status);
        assertEquals("SPDY/3.1", response.headers.get("Upgrade"));

        FakeConnection client = response.upgraded.get(5, TimeUnit.SECONDS);
        assertEquals("hello;", new String(client.fromServer.readNBytes(6), StandardCharsets.US_ASCII),
                "bytes the backend sent right after its 101");
        client.toServer.write("ping".getBytes(StandardCharsets.US_ASCII));
        client.toServer.flush();
        assertEquals("ping", new String(client.fromServer.readNBytes(4), StandardCharsets.US_ASCII));
        client.toServer.write("pong".getBytes(StandardCharsets.US_ASCII));
        client.toServer.flush();
        assertEquals("pong", new String(client.fromServer.readNBytes(4), StandardCharsets.US_ASCII));
        client.toServer.close();
        assertTrue(client.closed.get(5, TimeUnit.SECONDS), "the client's connection is closed once a side ends");
    }

    @Test
    void aRefusedUpgradeIsRelayedAsAnOrdinaryResponse() throws Exception {
        serveOnce("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: 9\r\nConnection: close\r\n\r\nforbidden", false);
        FakeResponse response = new FakeResponse();

        UpgradeAwareProxy.proxy(target(), transports().sslContext(key()), SERVER_NAME,
                request("GET", Map.of("Connection", List.of("Upgrade"), "Upgrade", List.of("websocket"))), ALICE, response);

        assertEquals(403, response.status);
        assertEquals("text/plain", response.headers.get("Content-Type"));
        assertFalse(response.headers.containsKey("Connection"));
        assertEquals("forbidden", response.body.toString(StandardCharsets.US_ASCII));
        assertTrue(response.completed);
        assertFalse(response.upgraded.isDone());
    }

    @Test
    void anUpgradeIsToldByTheConnectionHeader() {
        assertTrue(UpgradeAwareProxy.isUpgradeRequest(request("GET", Map.of("connection", List.of("keep-alive, Upgrade")))));
        assertFalse(UpgradeAwareProxy.isUpgradeRequest(request("GET", Map.of("Upgrade", List.of("websocket")))));
        assertFalse(UpgradeAwareProxy.isUpgradeRequest(request("GET", Map.of("Connection", List.of("keep-alive")))));
    }

    /** Accepts one connection: records the request head, answers, then echoes when it switched. */
    private void serveOnce(String answer, boolean echo) {
        Thread t = new Thread(() -> {
            try (SSLSocket s = (SSLSocket) backend.accept()) {
                InputStream in = s.getInputStream();
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    head.write(in.read());
                }
                backendSaw.complete(head.toString(StandardCharsets.ISO_8859_1));
                OutputStream out = s.getOutputStream();
                out.write(answer.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                if (echo) {
                    byte[] buffer = new byte[64];
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                backendSaw.completeExceptionally(e);
            }
        }, "echo-backend");
        t.setDaemon(true);
        t.start();
    }

    private URI target() {
        return URI.create("https://127.0.0.1:" + backend.getLocalPort() + "/api/v1/namespaces/ns/pods/p/exec?command=sh");
    }

    private ProxyTransports.Key key() {
        return new ProxyTransports.Key(caBundle, false, SERVER_NAME);
    }

    private static ProxyTransports transports() {
        return new ProxyTransports(new ProxyClientCertificate(null, null));
    }

    private static APIRequest request(String method, Map<String, List<String>> headers) {
        Map<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        byName.putAll(headers);
        return new APIRequest() {
            @Override
            public String method() {
                return method;
            }

            @Override
            public String path() {
                return rawPath();
            }

            @Override
            public String rawPath() {
                return "/api/v1/namespaces/ns/pods/p/exec";
            }

            @Override
            public String rawQuery() {
                return "command=sh";
            }

            @Override
            public Map<String, List<String>> headers() {
                return byName;
            }

            @Override
            public long contentLength() {
                return -1;
            }

            @Override
            public InputStream body() {
                return InputStream.nullInputStream();
            }

            @Override
            public RequestInfo requestInfo() {
                return null;
            }

            @Override
            public UserInfo user() {
                return ALICE;
            }

            @Override
            public void addFailureListener(Consumer<Throwable> listener) {
            }
        };
    }

    /** The client's side of an upgraded connection, over pipes. */
    private static final class FakeConnection implements UpgradedConnection {
        final PipedOutputStream toServer = new PipedOutputStream();
        final PipedInputStream input = new PipedInputStream(64 * 1024);
        final PipedInputStream fromServer = new PipedInputStream(64 * 1024);
        final PipedOutputStream output = new PipedOutputStream();
        final CompletableFuture<Boolean> closed = new CompletableFuture<>();

        FakeConnection() throws IOException {
            toServer.connect(input);
            output.connect(fromServer);
        }

        @Override
        public InputStream input() {
            return input;
        }

        @Override
        public OutputStream output() {
            return output;
        }

        @Override
        public void close() {
            closed.complete(true);
            try {
                input.close();
                output.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static final class FakeResponse implements APIResponse {
        final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        final CompletableFuture<FakeConnection> upgraded = new CompletableFuture<>();
        final List<Throwable> failures = new ArrayList<>();
        int status = 200;
        boolean completed;

        @Override
        public void setStatus(int code) {
            status = code;
        }

        @Override
        public void setHeader(String name, String value) {
            headers.put(name, value);
        }

        @Override
        public void addHeader(String name, String value) {
            headers.put(name, value);
        }

        @Override
        public OutputStream body() {
            return body;
        }

        @Override
        public void longRunning() {
        }

        @Override
        public void complete() {
            completed = true;
        }

        @Override
        public void fail(Throwable cause) {
            failures.add(cause);
        }

        /** As the server does: the protocol runs on a thread of its own once the link has returned. */
        @Override
        public void upgrade(Consumer<UpgradedConnection> protocol) {
            try {
                FakeConnection connection = new FakeConnection();
                Thread t = new Thread(() -> protocol.accept(connection), "upgraded");
                t.setDaemon(true);
                t.start();
                upgraded.complete(connection);
            } catch (IOException e) {
                upgraded.completeExceptionally(e);
            }
        }
    }
}
