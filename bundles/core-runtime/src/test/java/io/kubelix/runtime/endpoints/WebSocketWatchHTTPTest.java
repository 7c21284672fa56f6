package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import io.kubelix.runtime.storage.cacher.CacherOptions;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Watches asked for over a WebSocket, as fabric8's clients ask by default: the request is answered
 * with 101, each event is one text message holding its JSON line, pings are answered, the stream
 * ends with a normal close, and an error found before the stream starts is an ordinary Status
 * response, as kube-apiserver serves them (in protobuf, one binary message per event). With and
 * without the watch cache in front of the storage.
 */
class WebSocketWatchHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    /** Generous: how long to wait for what must come, never a measure of speed. */
    private static final long WAIT_SECONDS = 30;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private InProcessAPIServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void eachEventIsOneTextMessageFromTheWatchCache() throws Exception {
        eachEventIsOneTextMessage(true);
    }

    @Test
    void eachEventIsOneTextMessageFromAnUncachedStorage() throws Exception {
        eachEventIsOneTextMessage(false);
    }

    private void eachEventIsOneTextMessage(boolean watchCache) throws Exception {
        server = new InProcessAPIServer(watchCache);
        Messages messages = new Messages();
        WebSocket ws = open(CM + "?watch=true", messages, null);

        post("{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\"}}");
        JsonNode added = messages.event();
        assertEquals("ADDED", added.path("type").asText());
        assertEquals("a", added.path("object").path("metadata").path("name").asText());
        assertEquals("ConfigMap", added.path("object").path("kind").asText());

        put("a", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"2\"}}");
        JsonNode modified = messages.event();
        assertEquals("MODIFIED", modified.path("type").asText());
        assertEquals("2", modified.path("object").path("data").path("k").asText());

        delete("a");
        assertEquals("DELETED", messages.event().path("type").asText());
        assertEquals("", ws.getSubprotocol());
        ws.abort();
    }

    /** In protobuf each event is one binary message holding its WatchEvent, without the length a stream puts first. */
    @Test
    void inProtobufEachEventIsOneBinaryMessage() throws Exception {
        server = new InProcessAPIServer(true);
        Messages messages = new Messages();
        WebSocket ws = client.newWebSocketBuilder().header("Accept", "application/vnd.kubernetes.protobuf;stream=watch")
                .buildAsync(URI.create(server.base.toString().replace("http:", "ws:") + CM + "?watch=true"), messages)
                .join();

        post("{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\"}}");
        byte[] message = messages.binaries.poll(WAIT_SECONDS, TimeUnit.SECONDS);

        assertNotNull(message, "no watch event arrived");
        io.kubernetes.client.proto.Meta.WatchEvent event = io.kubernetes.client.proto.Meta.WatchEvent.parseFrom(message);
        assertEquals("ADDED", event.getType());
        JsonNode object = new io.kubelix.runtime.codec.protobuf.ProtobufCodec().decode(event.getObject().getRaw().toByteArray());
        assertEquals("1", object.path("data").path("k").asText());
        ws.abort();
    }

    @Test
    void aBurstArrivesOneMessagePerEventInOrder() throws Exception {
        server = new InProcessAPIServer(true);
        for (int i = 0; i < 50; i++) {
            post("{\"metadata\":{\"name\":\"" + String.format("cm-%02d", i) + "\"},\"data\":{\"p\":\""
                    + "x".repeat(i * 100) + "\"}}");
        }
        Messages messages = new Messages();
        WebSocket ws = open(CM + "?watch=true&resourceVersion=0", messages, null);

        for (int i = 0; i < 50; i++) {
            JsonNode ev = messages.event();
            assertEquals("ADDED", ev.path("type").asText());
            assertEquals(String.format("cm-%02d", i), ev.path("object").path("metadata").path("name").asText());
        }
        ws.abort();
    }

    @Test
    void theWatchEndsWithANormalCloseAtItsTimeout() throws Exception {
        server = new InProcessAPIServer(true);
        Messages messages = new Messages();
        open(CM + "?watch=true&timeoutSeconds=1", messages, null);

        assertEquals(1000, messages.closed.get(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void pingsAreAnsweredAndOfferedSubprotocolsIgnored() throws Exception {
        server = new InProcessAPIServer(true);
        Messages messages = new Messages();
        WebSocket ws = open(CM + "?watch=true", messages, "base64.binary.k8s.io");

        ws.sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.UTF_8)));

        assertEquals("are you there", messages.pongs.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals("", ws.getSubprotocol(), "kube-apiserver selects no subprotocol for a watch");
        ws.abort();
    }

    @Test
    void aTooOldResourceVersionIsAnErrorEventThenANormalClose() throws Exception {
        // A window of five events: the first of twenty changes has left it.
        server = new InProcessAPIServer(new CacherOptions(5, 1_000, Duration.ofMillis(50), Duration.ofSeconds(60),
                Duration.ofSeconds(3)));
        String first = JSON.readTree(post("{\"metadata\":{\"name\":\"cm-0\"}}")).path("metadata")
                .path("resourceVersion").asText();
        for (int i = 1; i < 20; i++) {
            post("{\"metadata\":{\"name\":\"cm-" + i + "\"}}");
        }
        Messages messages = new Messages();
        open(CM + "?watch=true&resourceVersion=" + first, messages, null);

        JsonNode error = messages.event();
        assertEquals("ERROR", error.path("type").asText());
        assertEquals(410, error.path("object").path("code").asInt(), error.toString());
        assertEquals(1000, messages.closed.get(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void anErrorBeforeTheStreamIsAStatusNotAnUpgrade() throws Exception {
        server = new InProcessAPIServer(true);
        CompletionException failed = assertThrows(CompletionException.class,
                () -> open(CM + "?watch=true&timeoutSeconds=abc", new Messages(), null));

        WebSocketHandshakeException handshake = (WebSocketHandshakeException) failed.getCause();
        HttpResponse<?> response = handshake.getResponse();
        assertEquals(400, response.statusCode());
        JsonNode status = JSON.readTree(String.valueOf(response.body()));
        assertEquals("BadRequest", status.path("reason").asText(), status.toString());
    }

    private WebSocket open(String path, Messages messages, String subprotocol) {
        WebSocket.Builder builder = client.newWebSocketBuilder();
        if (subprotocol != null) {
            builder.subprotocols(subprotocol);
        }
        return builder.buildAsync(URI.create(server.base.toString().replace("http:", "ws:") + path), messages).join();
    }

    private String post(String body) throws Exception {
        return send(HttpRequest.newBuilder(server.base.resolve(CM)).POST(HttpRequest.BodyPublishers.ofString(body)), 201);
    }

    private void put(String name, String body) throws Exception {
        send(HttpRequest.newBuilder(server.base.resolve(CM + "/" + name)).PUT(HttpRequest.BodyPublishers.ofString(body)),
                200);
    }

    private void delete(String name) throws Exception {
        send(HttpRequest.newBuilder(server.base.resolve(CM + "/" + name)).DELETE(), 200);
    }

    private String send(HttpRequest.Builder request, int expected) throws Exception {
        HttpResponse<String> response = client.send(request.header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, response.statusCode(), response.body());
        return response.body();
    }

    /** What the server sent: whole text messages, pongs, and the close code. */
    private static final class Messages implements WebSocket.Listener {
        final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
        final BlockingQueue<byte[]> binaries = new LinkedBlockingQueue<>();
        private final java.io.ByteArrayOutputStream partialBinary = new java.io.ByteArrayOutputStream();
        final BlockingQueue<String> pongs = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();

        /** The next message, which must be one watch event ending with a newline. */
        JsonNode event() throws Exception {
            String text = texts.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(text, "no watch event arrived");
            assertTrue(text.endsWith("}\n") && text.indexOf('\n') == text.length() - 1,
                    "one JSON line per message: " + text);
            return JSON.readTree(text);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                texts.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            partialBinary.writeBytes(bytes);
            if (last) {
                binaries.add(partialBinary.toByteArray());
                partialBinary.reset();
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
            pongs.add(StandardCharsets.UTF_8.decode(message).toString());
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.completeExceptionally(error);
        }
    }
}
