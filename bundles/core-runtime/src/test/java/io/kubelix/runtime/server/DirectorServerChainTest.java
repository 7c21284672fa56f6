package io.kubelix.runtime.server;

import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.api.server.UpgradedConnection;
import io.kubelix.runtime.request.Requests;
import io.kubelix.runtime.server.filters.WithPanicRecovery;
import io.kubelix.runtime.server.filters.WithRequestInfo;
import io.kubelix.runtime.server.healthz.VersionInfo;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Director's server chain over real HTTP/1.1: a plugin's link sees the request and writes the
 * response through the SPI (Jetty's adapted), the runtime's own link through Jetty's.
 */
class DirectorServerChainTest {
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of());
    private static final long IDLE_TIMEOUT_MILLIS = 400;

    private final List<DelegationTarget> chain = new CopyOnWriteArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Server server;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(IDLE_TIMEOUT_MILLIS);
        server.addConnector(connector);
        Director director = new Director(() -> chain, List::of, List::of, List.of(), new VersionInfo(), null);
        Handler authenticated = new Handler.Wrapper(director) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Requests.setUser(request, ALICE);
                return super.handle(request, response, callback);
            }
        };
        server.setHandler(new WithPanicRecovery(new WithRequestInfo(authenticated)));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void aPluginLinkSeesTheRequestAndAnswersWithALength() throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        chain.add(link((request, response) -> {
            String body = new String(request.body().readAllBytes(), StandardCharsets.UTF_8);
            seen.set(String.join(" | ", request.method(), request.path(), request.rawPath(), request.rawQuery(),
                    String.valueOf(request.contentLength()), body, request.requestInfo().verb(),
                    request.requestInfo().resource(), request.user().name(),
                    String.valueOf(request.headers().get("x-TWICE")), request.headers().get("content-type").get(0)));
            response.setStatus(201);
            response.setHeader("Content-Type", "text/plain");
            response.addHeader("X-Answer", "1");
            response.addHeader("X-Answer", "2");
            response.body().write("created\n".getBytes(StandardCharsets.UTF_8));
            response.complete();
            return true;
        }));

        HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve(
                "/apis/example.com/v1/namespaces/default/widgets?fieldSelector=a%3Db&limit=5"))
                .header("Content-Type", "application/json").header("X-Twice", "a").header("X-Twice", "b")
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(201, r.statusCode());
        assertEquals("created\n", r.body());
        assertEquals(List.of("8"), r.headers().allValues("content-length"), "a body that fits the buffer has its length");
        assertEquals(List.of("1", "2"), r.headers().allValues("x-answer"));
        assertEquals("POST | /apis/example.com/v1/namespaces/default/widgets"
                + " | /apis/example.com/v1/namespaces/default/widgets | fieldSelector=a%3Db&limit=5 | 7 | {\"a\":1}"
                + " | create | widgets | alice | [a, b] | application/json", seen.get());
    }

    @Test
    void aLinkThatDeclinesPassesTheRequestDownTheChainToTheRuntimesOwnLinkThenNotFound() throws Exception {
        List<String> asked = new ArrayList<>();
        chain.add(link((request, response) -> {
            asked.add("plugin " + request.rawPath());
            return false;
        }));
        chain.add(new JettyDelegationTarget() {
            @Override
            public String name() {
                return "kube-apiserver";
            }

            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (!Request.getPathInContext(request).startsWith("/api/")) {
                    return false;
                }
                response.write(true, ByteBuffer.wrap("core".getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });

        assertEquals("core", get("/api/v1/pods").body());
        assertEquals(404, get("/apis/example.com/v1/widgets").statusCode());
        assertEquals(List.of("plugin /api/v1/pods", "plugin /apis/example.com/v1/widgets"), asked);
    }

    @Test
    void aFlushedBodyStreamsAndALongRunningResponseMayBeQuietPastTheIdleTimeout() throws Exception {
        chain.add(link((request, response) -> {
            response.longRunning();
            OutputStream out = response.body();
            out.write("first\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            Thread.sleep(3 * IDLE_TIMEOUT_MILLIS);
            out.write("second\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThrows(IllegalStateException.class, () -> response.setHeader("X-Late", "1"),
                    "headers went with the first part");
            response.complete();
            return true;
        }));

        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(base.resolve("/apis/example.com/v1/widgets?watch=1"))
                .build(), HttpResponse.BodyHandlers.ofInputStream());

        assertEquals(200, r.statusCode());
        assertEquals(List.of("close"), r.headers().allValues("connection"), "the connection is the watch's alone");
        assertTrue(r.headers().firstValue("content-length").isEmpty(), "streamed, not sent whole");
        try (InputStream in = r.body()) {
            assertEquals("first\nsecond\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aQuietRequestThatTimesOutTellsItsFailureListener() throws Exception {
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        chain.add(link((request, response) -> {
            request.addFailureListener(failed::complete);
            new Thread(() -> {
                try {
                    failed.get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // The test fails on its own wait below.
                }
                response.fail(new IOException("gone"));
            }).start();
            return true;
        }));

        client.sendAsync(HttpRequest.newBuilder(base.resolve("/apis/example.com/v1/widgets")).build(),
                HttpResponse.BodyHandlers.discarding());

        assertInstanceOf(Throwable.class, failed.get(10, TimeUnit.SECONDS));
    }

    @Test
    void failingBeforeTheResponseIsCommittedIsA500AndAfterCutsTheResponseShort() throws Exception {
        chain.add(link((request, response) -> {
            if (request.rawQuery() == null) {
                response.fail(new IllegalStateException("backend broke"));
                return true;
            }
            response.body().write("partial".getBytes(StandardCharsets.UTF_8));
            response.body().flush();
            response.fail(new IOException("backend broke"));
            response.complete();
            return true;
        }));

        assertEquals(500, get("/apis/example.com/v1/widgets").statusCode());
        HttpResponse<InputStream> cut = client.send(HttpRequest.newBuilder(base.resolve("/apis/example.com/v1/widgets?x=1"))
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, cut.statusCode());
        assertThrows(IOException.class, () -> {
            try (InputStream in = cut.body()) {
                in.readAllBytes();
            }
        }, "the response does not end as if complete");
    }

    @Test
    void writingAfterTheResponseEndedFails() throws Exception {
        CompletableFuture<Throwable> late = new CompletableFuture<>();
        chain.add(link((request, response) -> {
            response.complete();
            try {
                response.body().write(1);
                late.complete(null);
            } catch (IOException e) {
                late.complete(e);
            }
            return true;
        }));

        assertEquals(200, get("/apis/example.com/v1/widgets").statusCode());
        // The client may have the response before the link's write after it has been tried.
        Throwable thrown = late.get(5, TimeUnit.SECONDS);
        assertInstanceOf(IOException.class, thrown);
        assertFalse(thrown.getMessage().isEmpty());
    }

    @Test
    void aPluginLinkUpgradesTheConnectionAndGetsItsRawBytesBothWays() throws Exception {
        chain.add(link((request, response) -> {
            response.setHeader("Upgrade", "echo");
            response.setHeader("Connection", "Upgrade");
            response.upgrade(DirectorServerChainTest::echo);
            return true;
        }));

        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            // Bytes sent with the request, before the 101, are the upgraded protocol's first.
            out.write(("GET /apis/example.com/v1/exec HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nearly;")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            assertTrue(head.startsWith("HTTP/1.1 101 "), head);
            assertTrue(head.toLowerCase(java.util.Locale.ROOT).contains("upgrade: echo"), head);
            assertEquals("early;", new String(in.readNBytes(6), StandardCharsets.US_ASCII));
            Thread.sleep(2 * IDLE_TIMEOUT_MILLIS); // past the connector's idle timeout, which no longer applies
            out.write("later".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals("later", new String(in.readNBytes(5), StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            assertEquals("bye", new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void aCommittedResponseCannotBeUpgraded() {
        AtomicReference<Throwable> refused = new AtomicReference<>();
        chain.add(link((request, response) -> {
            response.body().flush();
            try {
                response.upgrade(DirectorServerChainTest::echo);
            } catch (IllegalStateException e) {
                refused.set(e);
            }
            response.complete();
            return true;
        }));
        assertDoesNotThrow(() -> get("/apis/example.com/v1/x"));
        assertInstanceOf(IllegalStateException.class, refused.get());
    }

    /** Sends back what it reads, then {@code bye} once the client has shut its side down. */
    private static void echo(UpgradedConnection upgraded) {
        try (upgraded) {
            InputStream in = upgraded.input();
            OutputStream out = upgraded.output();
            byte[] buffer = new byte[64];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
            out.write("bye".getBytes(StandardCharsets.US_ASCII));
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The status line and headers of a response, up to the blank line. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("the connection closed in the response head: " + head);
            }
            head.append((char) c);
        }
        return head.toString();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @FunctionalInterface
    private interface Handling {
        boolean handle(APIRequest request, APIResponse response) throws Exception;
    }

    private static DelegationTarget link(Handling handling) {
        return new DelegationTarget() {
            @Override
            public String name() {
                return "plugin";
            }

            @Override
            public boolean handle(APIRequest request, APIResponse response) throws Exception {
                return handling.handle(request, response);
            }
        };
    }
}
