package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kubelix.runtime.endpoints.responsewriters.StreamingList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.runtime.storage.cacher.CacherOptions;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests served by the watch cache over HTTP: LIST written from the cached encodings (the same
 * bytes as GET), and watches.
 */
class CachedResourceHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CM = "/api/v1/namespaces/default/configmaps";

    private InProcessAPIServer server;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws Exception {
        server = new InProcessAPIServer(true);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    /** A list's items are what GET answers, without kind and apiVersion, as in kube's typed lists. */
    @Test
    void itemsOfAListFromTheCacheAreTheBytesGetAnswers() throws Exception {
        // Objects whose stored form starts with apiVersion and kind, with kind and apiVersion, and without either.
        post("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"\\u00e9\\\"\"}}");
        post("{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"b\",\"labels\":{\"x\":\"y\"}}}");
        post("{\"metadata\":{\"name\":\"c\"},\"data\":{\"n\":\"1\"}}");
        long cachedBefore = server.cachers.get("/configmaps").stats().readsFromCache();

        HttpResponse<String> list = get(CM + "?resourceVersion=0", null);

        assertEquals(200, list.statusCode(), list.body());
        assertEquals("application/json", list.headers().firstValue("Content-Type").orElse(""));
        assertTrue(server.cachers.get("/configmaps").stats().readsFromCache() > cachedBefore, "served from the cache");
        String rv = JSON.readTree(list.body()).path("metadata").path("resourceVersion").asText();
        String expected = "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"" + rv
                + "\"},\"items\":[" + String.join(",", untyped(get(CM + "/a", null).body()),
                untyped(get(CM + "/b", null).body()), untyped(get(CM + "/c", null).body())) + "]}";
        assertEquals(expected, list.body());
    }

    @Test
    void aListLargerThanSeveralChunksIsStreamedWhole() throws Exception {
        String payload = "x".repeat(4096);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            names.add(String.format("cm-%03d", i));
            post("{\"metadata\":{\"name\":\"" + names.get(i) + "\"},\"data\":{\"p\":\"" + payload + i + "\"}}");
        }

        HttpResponse<String> list = get(CM + "?resourceVersion=0", null);

        assertEquals(200, list.statusCode());
        int length = list.body().getBytes(StandardCharsets.UTF_8).length;
        assertTrue(length > 3 * StreamingList.CHUNK, "the list spans several chunks: " + length);
        JsonNode items = JSON.readTree(list.body()).path("items");
        assertEquals(100, items.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(names.get(i), items.get(i).path("metadata").path("name").asText());
            assertEquals(payload + i, items.get(i).path("data").path("p").asText());
        }
    }

    @Test
    void anEmptyListFromTheCache() throws Exception {
        HttpResponse<String> list = get(CM + "?resourceVersion=0", null);

        assertEquals(200, list.statusCode(), list.body());
        JsonNode body = JSON.readTree(list.body());
        assertEquals("ConfigMapList", body.path("kind").asText());
        assertTrue(body.path("items").isArray() && body.path("items").isEmpty(), list.body());
    }

    @Test
    void yamlTablesAndMetadataListsOfCachedItemsAreStillWritten() throws Exception {
        post("{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
        post("{\"metadata\":{\"name\":\"b\"}}");

        JsonNode yaml = new YAMLMapper().readTree(get(CM + "?resourceVersion=0", "application/yaml").body());
        assertEquals(List.of("a", "b"), names(yaml.path("items")));
        assertTrue(yaml.path("items").get(0).path("kind").isMissingNode(), "a typed list's items are untyped");

        JsonNode table = JSON.readTree(get(CM + "?resourceVersion=0", "application/json;as=Table;g=meta.k8s.io;v=v1").body());
        assertEquals("Table", table.path("kind").asText());
        assertEquals(2, table.path("rows").size());

        JsonNode partial = JSON.readTree(get(CM + "?resourceVersion=0",
                "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1").body());
        assertEquals("PartialObjectMetadataList", partial.path("kind").asText());
        assertEquals(List.of("a", "b"), names(partial.path("items")));
        assertTrue(partial.path("items").get(0).path("data").isMissingNode(), "metadata only");

        // Reading the slow paths changed nothing the cache keeps.
        JsonNode again = JSON.readTree(get(CM + "?resourceVersion=0", null).body());
        assertEquals("v", again.path("items").get(0).path("data").path("k").asText());
        assertEquals("ConfigMap", JSON.readTree(get(CM + "/a", null).body()).path("kind").asText());
    }

    @Test
    void aWatchWithANegativeTimeoutEndsAtOnceAndAHugeOneIsBounded() throws Exception {
        String rv = JSON.readTree(post("{\"metadata\":{\"name\":\"a\"}}").body()).path("metadata")
                .path("resourceVersion").asText();

        long started = System.nanoTime();
        HttpResponse<String> ended = client.send(HttpRequest.newBuilder(server.base.resolve(
                CM + "?watch=true&timeoutSeconds=-5&resourceVersion=" + rv)).timeout(java.time.Duration.ofSeconds(20))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ended.statusCode(), ended.body());
        assertTrue(System.nanoTime() - started < 5_000_000_000L, "ended at once, as kube's does");

        java.util.concurrent.CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> huge = client.sendAsync(
                HttpRequest.newBuilder(server.base.resolve(CM + "?watch=true&timeoutSeconds=" + Long.MAX_VALUE
                        + "&resourceVersion=" + rv)).build(), HttpResponse.BodyHandlers.ofLines());
        HttpResponse<java.util.stream.Stream<String>> open = huge.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(200, open.statusCode());
        post("{\"metadata\":{\"name\":\"b\"}}");
        assertEquals("ADDED", read(open.body().findFirst().orElseThrow()).path("type").asText());
    }

    @Test
    void aWatchWithBookmarksEndsWithABookmarkBeforeItsTimeout() throws Exception {
        String rv = JSON.readTree(post("{\"metadata\":{\"name\":\"a\"}}").body()).path("metadata")
                .path("resourceVersion").asText();

        // The stream ends after 3 s; the cache's bookmarks otherwise come once a minute.
        HttpResponse<java.util.stream.Stream<String>> watch = client.send(HttpRequest.newBuilder(server.base.resolve(
                CM + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=" + rv)).build(),
                HttpResponse.BodyHandlers.ofLines());
        List<String> types = new ArrayList<>();
        List<String> versions = new ArrayList<>();
        watch.body().forEach(line -> {
            JsonNode event = read(line);
            types.add(event.path("type").asText());
            versions.add(event.path("object").path("metadata").path("resourceVersion").asText());
        });

        assertEquals(200, watch.statusCode());
        assertEquals(List.of("BOOKMARK"), types);
        assertEquals(List.of(rv), versions);
    }

    @Test
    void eventsOfEverySizeArriveWholeAndInOrderWhileTheStreamIsBeingWritten() throws Exception {
        String rv = JSON.readTree(post("{\"metadata\":{\"name\":\"a\"}}").body()).path("metadata")
                .path("resourceVersion").asText();
        // Sizes below and above the batch buffer a stream keeps, and above one batch.
        int[] sizes = {10, 3_000, 20_000, 70_000, 1_500};
        int updates = 60;
        java.util.concurrent.CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> watch = client.sendAsync(
                HttpRequest.newBuilder(server.base.resolve(CM + "?watch=true&timeoutSeconds=30&resourceVersion=" + rv)).build(),
                HttpResponse.BodyHandlers.ofLines());

        for (int i = 0; i < updates; i++) {
            String patch = "{\"data\":{\"seq\":\"" + i + "\",\"payload\":\"" + "p".repeat(sizes[i % sizes.length]) + "\"}}";
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.base.resolve(CM + "/a"))
                    .method("PATCH", HttpRequest.BodyPublishers.ofString(patch))
                    .header("Content-Type", "application/merge-patch+json").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
        }

        List<JsonNode> events = watch.get(30, java.util.concurrent.TimeUnit.SECONDS).body().limit(updates).map(CachedResourceHTTPTest::read)
                .toList();
        for (int i = 0; i < updates; i++) {
            JsonNode data = events.get(i).path("object").path("data");
            assertEquals("MODIFIED", events.get(i).path("type").asText());
            assertEquals(Integer.toString(i), data.path("seq").asText(), "event " + i + " in order");
            assertEquals(sizes[i % sizes.length], data.path("payload").asText().length(), "event " + i + " whole");
        }
    }

    @Test
    void aWatchTerminatedForNotReadingIsAbortedWithoutWaitingForTheClient() throws Exception {
        server.close();
        // Five queued events at most, and no waiting for a slow watcher.
        server = new InProcessAPIServer(new CacherOptions(10_000, 5, Duration.ZERO, Duration.ofMinutes(1),
                Duration.ofSeconds(3)));
        String rv = JSON.readTree(post("{\"metadata\":{\"name\":\"big\"}}").body()).path("metadata")
                .path("resourceVersion").asText();
        try (Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new InetSocketAddress(server.base.getHost(), server.base.getPort()));
            stuck.getOutputStream().write(("GET " + CM + "?watch=true&resourceVersion=" + rv + " HTTP/1.1\r\n"
                    + "Host: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            // The client never reads: 64 KiB updates fill the socket, then the watcher's queue.
            String payload = "x".repeat(64 * 1024);
            Cacher cache = server.cachers.get("/configmaps");
            for (int i = 0; i < 500 && cache.stats().slowWatchersTerminated() == 0; i++) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.base.resolve(CM + "/big"))
                        .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"data\":{\"p\":\"" + i + payload + "\"}}"))
                        .header("Content-Type", "application/merge-patch+json").build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
            }
            assertEquals(1, cache.stats().slowWatchersTerminated(), "the watcher fell behind and was terminated");

            // The server lets go of the connection while the client still reads nothing.
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (connected(stuck.getLocalPort()) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertFalse(connected(stuck.getLocalPort()), "the response to the stuck client was aborted");
        }
    }

    /** Whether the server still holds a connection from the local port {@code port}. */
    private boolean connected(int port) {
        return server.connector.getConnectedEndPoints().stream()
                .anyMatch(e -> e.getRemoteSocketAddress() instanceof InetSocketAddress a && a.getPort() == port);
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> names(JsonNode items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.path("metadata").path("name").asText()));
        return out;
    }

    private HttpResponse<String> post(String body) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.base.resolve(CM))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return r;
    }

    private HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path)).GET();
        if (accept != null) {
            b.header("Accept", accept);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET's body as a typed list's item: the same JSON without its apiVersion and kind. */
    private static String untyped(String object) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode o = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(object);
        o.remove(List.of("apiVersion", "kind"));
        return JSON.writeValueAsString(o);
    }
}
