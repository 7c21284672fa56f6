package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.kubelix.runtime.codec.protobuf.ProtobufCodec;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Responses in Kubernetes protobuf, negotiated as kube-apiserver negotiates them: objects, lists
 * from the watch cache, Status errors and delete answers, watch streams, and JSON (or a 406) for
 * custom resources, which have no protobuf form.
 */
class ProtobufHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";

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
    void createGetDeleteAndErrorsInProtobuf() throws Exception {
        V1.ConfigMap sent = V1.ConfigMap.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("settings").putLabels("app", "web"))
                .putData("k", "v").build();

        HttpResponse<byte[]> created = send("POST", CM, PROTOBUF, PROTOBUF, envelope("v1", "ConfigMap", sent.toByteArray()));
        HttpResponse<byte[]> got = send("GET", CM + "/settings", PROTOBUF, null, null);
        HttpResponse<byte[]> missing = send("GET", CM + "/missing", PROTOBUF, null, null);
        HttpResponse<byte[]> deleted = send("DELETE", CM + "/settings", PROTOBUF, null, null);

        assertEquals(201, created.statusCode());
        assertEquals(PROTOBUF, created.headers().firstValue("Content-Type").orElse(""));
        V1.ConfigMap cm = V1.ConfigMap.parseFrom(raw(created.body(), "ConfigMap"));
        assertEquals("settings", cm.getMetadata().getName());
        assertEquals("v", cm.getDataMap().get("k"));
        assertTrue(cm.getMetadata().getCreationTimestamp().getSeconds() > 1_600_000_000L);
        assertEquals(200, got.statusCode());
        assertEquals(cm, V1.ConfigMap.parseFrom(raw(got.body(), "ConfigMap")));
        assertEquals(404, missing.statusCode());
        assertEquals(PROTOBUF, missing.headers().firstValue("Content-Type").orElse(""));
        Meta.Status notFound = Meta.Status.parseFrom(raw(missing.body(), "Status"));
        assertEquals("NotFound", notFound.getReason());
        assertEquals(404, notFound.getCode());
        assertEquals(200, deleted.statusCode());
        Meta.Status success = Meta.Status.parseFrom(raw(deleted.body(), "Status"));
        assertEquals("Success", success.getStatus());
        assertEquals("settings", success.getDetails().getName());
    }

    @Test
    void aListFromTheWatchCacheIsTheKindsListMessage() throws Exception {
        for (String name : List.of("a", "b", "c")) {
            postJson(CM, "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"n\":\"" + name + "\"}}");
        }

        HttpResponse<byte[]> list = send("GET", CM + "?resourceVersion=0", PROTOBUF, null, null);
        HttpResponse<byte[]> json = send("GET", CM + "?resourceVersion=0", null, null, null);

        assertEquals(200, list.statusCode());
        V1.ConfigMapList items = V1.ConfigMapList.parseFrom(raw(list.body(), "ConfigMapList"));
        assertEquals(List.of("a", "b", "c"), items.getItemsList().stream().map(i -> i.getMetadata().getName()).toList());
        assertEquals("b", items.getItems(1).getDataMap().get("n"));
        assertEquals(JSON.readTree(json.body()).path("metadata").path("resourceVersion").asText(),
                items.getMetadata().getResourceVersion());
        assertEquals("application/json", json.headers().firstValue("Content-Type").orElse(""), "JSON stays JSON");
        // Each item's message is kept by the cache: a second list is written from the same bytes.
        assertArrayEquals(list.body(), send("GET", CM + "?resourceVersion=0", PROTOBUF, null, null).body());
    }

    @Test
    void acceptIsNegotiatedByQualityAndOrderAsKubeDoes() throws Exception {
        postJson(CM, "{\"metadata\":{\"name\":\"a\"}}");
        postJson(WIDGETS, "{\"metadata\":{\"name\":\"w\"}}");

        assertEquals(PROTOBUF, type(CM + "/a", "application/json;q=0.5, " + PROTOBUF));
        assertEquals("application/json", type(CM + "/a", PROTOBUF + ";q=0.5, application/json"));
        assertEquals(PROTOBUF, type(CM + "/a", PROTOBUF + ", application/json"));
        assertEquals("application/json", type(CM + "/a", "*/*"));
        assertEquals("application/json", type(CM + "/a", "application/*"));
        // A Table has no protobuf form: the next range is taken.
        assertEquals("application/json", type(CM + "/a", PROTOBUF + ";as=Table;g=meta.k8s.io;v=v1, application/json"));
        assertEquals("application/json", type(WIDGETS + "/w", PROTOBUF + ", application/json"), "custom resources are JSON");
        assertEquals(PROTOBUF, type(WIDGETS + "/w", PROTOBUF + ";as=PartialObjectMetadata;g=meta.k8s.io;v=v1"),
                "but their metadata has a protobuf form");
        assertEquals(PROTOBUF, type(CM, PROTOBUF + ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"));

        HttpResponse<byte[]> refused = send("GET", WIDGETS + "/w", PROTOBUF, null, null);
        assertEquals(406, refused.statusCode());
        Meta.Status status = Meta.Status.parseFrom(raw(refused.body(), "Status"));
        assertEquals("NotAcceptable", status.getReason());
        assertEquals("only the following media types are accepted: application/json, application/yaml, "
                + "application/vnd.kubernetes.protobuf", status.getMessage());
        HttpResponse<byte[]> table = send("GET", CM + "/a", PROTOBUF + ";as=Table;g=meta.k8s.io;v=v1", null, null);
        assertEquals(406, table.statusCode());
    }

    @Test
    void aPartialObjectMetadataListInProtobuf() throws Exception {
        postJson(CM, "{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"y\"}},\"data\":{\"k\":\"v\"}}");

        HttpResponse<byte[]> r = send("GET", CM, PROTOBUF + ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", null, null);

        Meta.PartialObjectMetadataList list = Meta.PartialObjectMetadataList.parseFrom(raw(r.body(),
                "PartialObjectMetadataList"));
        assertEquals("y", list.getItems(0).getMetadata().getLabelsMap().get("x"));
    }

    @Test
    void aWatchInProtobufIsLengthPrefixedWatchEvents() throws Exception {
        String rv = JSON.readTree(postJson(CM, "{\"metadata\":{\"name\":\"a\"}}")).path("metadata")
                .path("resourceVersion").asText();

        HttpResponse<InputStream> watch = client.send(HttpRequest.newBuilder(server.base.resolve(CM
                        + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=" + rv))
                .header("Accept", PROTOBUF + ";stream=watch, application/json").build(), HttpResponse.BodyHandlers.ofInputStream());
        postJson(CM, "{\"metadata\":{\"name\":\"b\"},\"data\":{\"k\":\"v\"}}");

        assertEquals(200, watch.statusCode());
        assertEquals(PROTOBUF + ";stream=watch", watch.headers().firstValue("Content-Type").orElse(""));
        try (DataInputStream in = new DataInputStream(watch.body())) {
            Meta.WatchEvent added = Meta.WatchEvent.parseFrom(in.readNBytes(in.readInt()));
            assertEquals("ADDED", added.getType());
            V1.ConfigMap b = V1.ConfigMap.parseFrom(raw(added.getObject().getRaw().toByteArray(), "ConfigMap"));
            assertEquals("v", b.getDataMap().get("k"));
            // The stream ends after 3 s with a bookmark.
            Meta.WatchEvent bookmark = Meta.WatchEvent.parseFrom(in.readNBytes(in.readInt()));
            assertEquals("BOOKMARK", bookmark.getType());
            assertEquals(b.getMetadata().getResourceVersion(), V1.ConfigMap.parseFrom(raw(bookmark.getObject().getRaw()
                    .toByteArray(), "ConfigMap")).getMetadata().getResourceVersion());
            assertEquals(-1, in.read());
        }
    }

    @Test
    void aWatchOfATooOldVersionIsAnErrorEventInProtobuf() throws Exception {
        // A window of five events: the first of twenty changes has left it.
        server.close();
        server = new InProcessAPIServer(new io.kubelix.runtime.storage.cacher.CacherOptions(5, 1_000,
                Duration.ofMillis(50), Duration.ofSeconds(60), Duration.ofSeconds(3)));
        String first = JSON.readTree(postJson(CM, "{\"metadata\":{\"name\":\"cm-0\"}}")).path("metadata")
                .path("resourceVersion").asText();
        for (int i = 1; i < 20; i++) {
            postJson(CM, "{\"metadata\":{\"name\":\"cm-" + i + "\"}}");
        }

        HttpResponse<InputStream> watch = client.send(HttpRequest.newBuilder(server.base.resolve(CM
                        + "?watch=true&timeoutSeconds=5&resourceVersion=" + first))
                .header("Accept", PROTOBUF + ";stream=watch").build(), HttpResponse.BodyHandlers.ofInputStream());

        try (DataInputStream in = new DataInputStream(watch.body())) {
            Meta.WatchEvent error = Meta.WatchEvent.parseFrom(in.readNBytes(in.readInt()));
            assertEquals("ERROR", error.getType());
            assertEquals(410, Meta.Status.parseFrom(raw(error.getObject().getRaw().toByteArray(), "Status")).getCode());
        }
    }

    @Test
    void aWatchInYamlIsRefusedWithKubesStreamMessage() throws Exception {
        HttpResponse<byte[]> r = send("GET", CM + "?watch=true", "application/yaml", null, null);

        assertEquals(406, r.statusCode());
        JsonNode status = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(r.body());
        assertEquals("only the following media types are accepted: application/json;stream=watch, "
                + "application/vnd.kubernetes.protobuf;stream=watch", status.path("message").asText());
    }

    @Test
    void theDecoderReadsWhatTheServerWrites() throws Exception {
        postJson(CM, "{\"metadata\":{\"name\":\"a\",\"annotations\":{\"n\":\"1\"}},\"data\":{\"k\":\"v\"}}");

        JsonNode json = JSON.readTree(send("GET", CM + "/a", null, null, null).body());
        JsonNode fromProtobuf = new ProtobufCodec().decode(send("GET", CM + "/a", PROTOBUF, null, null).body());

        assertEquals(json, JSON.readTree(fromProtobuf.toString()));
    }

    private String type(String path, String accept) throws Exception {
        HttpResponse<byte[]> r = send("GET", path, accept, null, null);
        assertEquals(200, r.statusCode(), () -> accept + ": " + new String(r.body(), StandardCharsets.UTF_8));
        return r.headers().firstValue("Content-Type").orElse("");
    }

    private byte[] postJson(String path, String body) throws Exception {
        HttpResponse<byte[]> r = send("POST", path, null, "application/json", body.getBytes(StandardCharsets.UTF_8));
        assertEquals(201, r.statusCode(), () -> new String(r.body(), StandardCharsets.UTF_8));
        return r.body();
    }

    private HttpResponse<byte[]> send(String method, String path, String accept, String contentType, byte[] body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (accept != null) {
            b.header("Accept", accept);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** The message of a protobuf body, checked to be of {@code kind}. */
    private static ByteString raw(byte[] body, String kind) throws Exception {
        assertArrayEquals(new byte[] {'k', '8', 's', 0}, Arrays.copyOf(body, 4), () -> new String(body, StandardCharsets.UTF_8));
        Runtime.Unknown unknown = Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, 4, body.length));
        assertEquals(kind, unknown.getTypeMeta().getKind());
        return unknown.getRaw();
    }

    private static byte[] envelope(String apiVersion, String kind, byte[] raw) {
        byte[] unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(ByteString.copyFrom(raw)).build().toByteArray();
        byte[] out = new byte[unknown.length + 4];
        System.arraycopy(new byte[] {'k', '8', 's', 0}, 0, out, 0, 4);
        System.arraycopy(unknown, 0, out, 4, unknown.length);
        return out;
    }
}
