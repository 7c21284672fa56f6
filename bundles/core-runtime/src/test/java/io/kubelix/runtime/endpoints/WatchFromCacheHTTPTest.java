package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Watches served from the watch cache over HTTP. */
class WatchFromCacheHTTPTest {
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

    @Test
    void aWatchWithBookmarksEndsWithABookmarkBeforeItsTimeout() throws Exception {
        HttpResponse<String> created = client.send(HttpRequest.newBuilder(server.base.resolve(CM))
                .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"a\"}}"))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        String rv = JSON.readTree(created.body()).path("metadata").path("resourceVersion").asText();

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

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
