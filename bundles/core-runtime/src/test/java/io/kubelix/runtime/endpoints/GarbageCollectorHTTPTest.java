package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The garbage collector over HTTP, as clients see it: owner references followed across resources
 * for background, orphan and foreground deletion, dangling references, and references it cannot
 * resolve.
 */
class GarbageCollectorHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private InProcessAPIServer server;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws Exception {
        server = new InProcessAPIServer(true).withGarbageCollector();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void aDependentOfADeletedOwnerIsDeletedInTheBackground() throws Exception {
        JsonNode owner = create(CM, object("owner", List.of()));
        create(WIDGETS, object("dependent", List.of(ref("v1", "ConfigMap", owner, false))));
        create(WIDGETS, object("bystander", List.of()));

        assertEquals(200, send("DELETE", CM + "/owner", null).statusCode());

        awaitStatus(WIDGETS + "/dependent", 404);
        assertEquals(200, send("GET", WIDGETS + "/bystander", null).statusCode());
    }

    @Test
    void aDependentWhoseOwnerNeverExistedIsDeleted() throws Exception {
        ObjectNode ghost = JSON.createObjectNode();
        ghost.putObject("metadata").put("name", "ghost").put("uid", "6b1c1e8e-0000-4000-8000-000000000000");
        create(CM, object("orphaned", List.of(ref("v1", "ConfigMap", ghost, false))));

        awaitStatus(CM + "/orphaned", 404);
    }

    @Test
    void aDependentWithALiveOwnerOnlyLosesItsReferenceToTheGoneOne() throws Exception {
        JsonNode staying = create(CM, object("staying", List.of()));
        JsonNode going = create(CM, object("going", List.of()));
        create(WIDGETS, object("shared", List.of(ref("v1", "ConfigMap", staying, false), ref("v1", "ConfigMap", going, false))));

        send("DELETE", CM + "/going", null);

        JsonNode shared = await(WIDGETS + "/shared", w -> w.path("metadata").path("ownerReferences").size() == 1);
        assertEquals("staying", shared.path("metadata").path("ownerReferences").get(0).path("name").asText());
    }

    @Test
    void orphanPropagationRemovesTheReferencesThenTheOwner() throws Exception {
        JsonNode owner = create(CM, object("owner", List.of()));
        create(WIDGETS, object("kept", List.of(ref("v1", "ConfigMap", owner, false))));

        HttpResponse<String> deleted = send("DELETE", CM + "/owner", "{\"propagationPolicy\":\"Orphan\"}");
        assertEquals(200, deleted.statusCode(), deleted.body());

        awaitStatus(CM + "/owner", 404);
        JsonNode kept = JSON.readTree(send("GET", WIDGETS + "/kept", null).body());
        assertTrue(kept.path("metadata").path("ownerReferences").isMissingNode(), kept.toString());
    }

    @Test
    void foregroundPropagationDeletesDependentsBeforeTheOwner() throws Exception {
        JsonNode owner = create(CM, object("owner", List.of()));
        JsonNode middle = create(WIDGETS, object("middle", List.of(ref("v1", "ConfigMap", owner, true))));
        String rv = create(CM, object("leaf", List.of(ref("example.com/v1", "Widget", middle, true))))
                .path("metadata").path("resourceVersion").asText();
        CompletableFuture<List<JsonNode>> configMapsDeleted = deletions(CM, rv, 2);
        CompletableFuture<List<JsonNode>> widgetsDeleted = deletions(WIDGETS, rv, 1);

        HttpResponse<String> deleted = send("DELETE", CM + "/owner", "{\"propagationPolicy\":\"Foreground\"}");

        // The answer is the owner marked: it waits for its dependents (the collector may be done by now).
        JsonNode marked = JSON.readTree(deleted.body()).path("metadata");
        assertTrue(marked.has("deletionTimestamp"), deleted.body());
        assertEquals("foregroundDeletion", marked.path("finalizers").get(0).asText(), deleted.body());
        List<JsonNode> cms = configMapsDeleted.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        List<JsonNode> widgets = widgetsDeleted.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(List.of("leaf", "owner"), cms.stream().map(o -> o.path("name").asText()).toList());
        assertEquals("middle", widgets.get(0).path("name").asText());
        // Revisions are the storage's, across resources: the leaf went first, then the middle, then the owner.
        long leaf = cms.get(0).path("resourceVersion").asLong();
        long mid = widgets.get(0).path("resourceVersion").asLong();
        long top = cms.get(1).path("resourceVersion").asLong();
        assertTrue(leaf < mid && mid < top, "deleted at " + leaf + ", " + mid + ", " + top);
    }

    /**
     * The metadata of the next {@code count} objects of {@code collection} deleted after {@code rv}, in
     * order. Returns once the watch is open (its response has begun), so what the test does next is
     * seen by it; the deletions are read on a thread of their own. (Reading them in a dependent stage
     * of {@code sendAsync} ran the read in the test's own thread whenever the response had begun
     * before the stage was added, which blocked the test until the watch timed out.)
     */
    private CompletableFuture<List<JsonNode>> deletions(String collection, String rv, int count) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> watch = client.send(HttpRequest.newBuilder(server.base.resolve(
                collection + "?watch=true&timeoutSeconds=" + WAIT.toSeconds() + "&resourceVersion=" + rv)).build(),
                HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, watch.statusCode(), collection + " watch");
        return CompletableFuture.supplyAsync(() -> watch.body().map(GarbageCollectorHTTPTest::read)
                .filter(e -> e.path("type").asText().equals("DELETED"))
                .map(e -> e.path("object").path("metadata")).limit(count).toList(), reader -> {
                    Thread t = new Thread(reader, "watch-reader " + collection);
                    t.setDaemon(true);
                    t.start();
                });
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aReferenceToAKindNoResourceServesLeavesTheDependentAlone() throws Exception {
        ObjectNode unknown = JSON.createObjectNode();
        unknown.putObject("metadata").put("name", "x").put("uid", "6b1c1e8e-0000-4000-8000-000000000001");
        create(CM, object("unresolvable", List.of(ref("nowhere.example/v1", "Gadget", unknown, false))));
        JsonNode owner = create(CM, object("owner", List.of()));
        create(CM, object("witness", List.of(ref("v1", "ConfigMap", owner, false))));

        // Once the collector has acted on the witness, it has seen the unresolvable one too.
        send("DELETE", CM + "/owner", null);
        awaitStatus(CM + "/witness", 404);
        assertEquals(200, send("GET", CM + "/unresolvable", null).statusCode());
    }

    private static ObjectNode object(String name, List<ObjectNode> owners) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (!owners.isEmpty()) {
            meta.putArray("ownerReferences").addAll(owners);
        }
        return o;
    }

    private static ObjectNode ref(String apiVersion, String kind, JsonNode owner, boolean block) {
        ObjectNode r = JSON.createObjectNode().put("apiVersion", apiVersion).put("kind", kind)
                .put("name", owner.path("metadata").path("name").asText())
                .put("uid", owner.path("metadata").path("uid").asText());
        if (block) {
            r.put("blockOwnerDeletion", true);
        }
        return r;
    }

    private JsonNode create(String collection, ObjectNode body) throws Exception {
        HttpResponse<String> r = send("POST", collection, body.toString());
        assertEquals(201, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private void awaitStatus(String path, int code) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        int last;
        do {
            last = send("GET", path, null).statusCode();
            if (last == code) {
                return;
            }
            Thread.sleep(100);
        } while (Instant.now().isBefore(deadline));
        fail(path + " answered " + last + ", not " + code + ", for " + WAIT);
    }

    private JsonNode await(String path, Predicate<JsonNode> condition) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        JsonNode last;
        do {
            last = JSON.readTree(send("GET", path, null).body());
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        } while (Instant.now().isBefore(deadline));
        return fail(path + " never met the condition: " + last);
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
