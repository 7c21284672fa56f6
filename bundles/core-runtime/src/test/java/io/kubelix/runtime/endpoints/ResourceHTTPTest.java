package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resource requests over real HTTP through the core API link: PartialObjectMetadata, Tables with
 * includeObject, deletion with finalizers and propagation policies, the status subresource, and
 * kube-apiserver's answers to bad input.
 */
class ResourceHTTPTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String CM = "/api/v1/namespaces/default/configmaps";
    static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";

    private InProcessAPIServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server = new InProcessAPIServer();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    // --- PartialObjectMetadata and Tables ---

    @Test
    void getAsPartialObjectMetadataCarriesOnlyTypeAndMetadata() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"y\"}},\"data\":{\"k\":\"v\"}}");
        for (String v : List.of("v1", "v1beta1")) {
            HttpResponse<String> r = get(CM + "/a", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=" + v);

            assertEquals(200, r.statusCode(), r.body());
            assertEquals("application/json;as=PartialObjectMetadata;v=" + v + ";g=meta.k8s.io", contentType(r));
            JsonNode p = JSON.readTree(r.body());
            assertEquals("PartialObjectMetadata", p.path("kind").asText());
            assertEquals("meta.k8s.io/" + v, p.path("apiVersion").asText());
            assertEquals("a", p.path("metadata").path("name").asText());
            assertEquals("y", p.path("metadata").path("labels").path("x").asText());
            assertEquals(List.of("apiVersion", "kind", "metadata"), fieldNames(p));
        }
    }

    @Test
    void listAsPartialObjectMetadataList() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
        send("POST", CM, "{\"metadata\":{\"name\":\"b\"}}");

        HttpResponse<String> r = get(CM + "?limit=1", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1");

        assertEquals(200, r.statusCode(), r.body());
        JsonNode list = JSON.readTree(r.body());
        assertEquals("PartialObjectMetadataList", list.path("kind").asText());
        assertEquals("meta.k8s.io/v1", list.path("apiVersion").asText());
        assertFalse(list.path("metadata").path("continue").asText().isEmpty(), "paging is kept");
        assertEquals(1, list.path("items").size());
        JsonNode item = list.path("items").get(0);
        assertEquals("PartialObjectMetadata", item.path("kind").asText());
        assertEquals("meta.k8s.io/v1", item.path("apiVersion").asText());
        assertEquals("a", item.path("metadata").path("name").asText());
        assertEquals(List.of("apiVersion", "kind", "metadata"), fieldNames(item));
    }

    @Test
    void partialMetadataOfTheWrongShapeIsNotAcceptable() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"a\"}}");

        assertStatus(get(CM + "/a", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"), 406, "NotAcceptable");
        assertStatus(get(CM, "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"), 406, "NotAcceptable");
        assertStatus(get(CM, "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2"), 406, "NotAcceptable");
    }

    @Test
    void tableIncludeObject() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
        String table = "application/json;as=Table;g=meta.k8s.io;v=v1";

        JsonNode none = JSON.readTree(get(CM + "?includeObject=None", table).body());
        assertEquals("Table", none.path("kind").asText());
        assertEquals("a", none.path("rows").get(0).path("cells").get(0).asText());
        assertTrue(none.path("rows").get(0).path("object").isMissingNode());

        for (String q : List.of("", "?includeObject=Metadata")) {
            JsonNode meta = JSON.readTree(get(CM + q, table).body()).path("rows").get(0).path("object");
            assertEquals("PartialObjectMetadata", meta.path("kind").asText(), q);
            assertEquals("meta.k8s.io/v1", meta.path("apiVersion").asText(), q);
            assertEquals("a", meta.path("metadata").path("name").asText(), q);
            assertTrue(meta.path("data").isMissingNode(), q);
        }

        JsonNode object = JSON.readTree(get(CM + "/a?includeObject=Object", table).body()).path("rows").get(0).path("object");
        assertEquals("ConfigMap", object.path("kind").asText());
        assertEquals("v", object.path("data").path("k").asText());

        assertStatus(get(CM + "?includeObject=All", table), 400, "BadRequest");
    }

    // --- deletion ---

    @Test
    void deleteOfAnObjectWithFinalizersAnswersTheObject() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]}}");

        HttpResponse<String> r = send("DELETE", CM + "/held", null);

        assertEquals(200, r.statusCode(), r.body());
        JsonNode obj = JSON.readTree(r.body());
        assertEquals("ConfigMap", obj.path("kind").asText());
        assertFalse(obj.path("metadata").path("deletionTimestamp").asText().isEmpty());
        assertEquals(0, obj.path("metadata").path("deletionGracePeriodSeconds").asInt(-1));

        HttpResponse<String> released = send("PATCH", CM + "/held", "{\"metadata\":{\"finalizers\":null}}",
                "application/merge-patch+json");
        assertEquals(200, released.statusCode(), released.body());
        assertEquals("held", JSON.readTree(released.body()).path("metadata").path("name").asText());
        assertStatus(get(CM + "/held", null), 404, "NotFound");
    }

    @Test
    void deleteAnswers() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"a\"}}");
        send("POST", CM, "{\"metadata\":{\"name\":\"b\"}}");

        JsonNode status = JSON.readTree(send("DELETE", CM + "/a", null).body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("Success", status.path("status").asText());
        assertEquals("a", status.path("details").path("name").asText());
        assertEquals("configmaps", status.path("details").path("kind").asText());

        HttpResponse<String> orphan = send("DELETE", CM + "/b", "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                + "\"propagationPolicy\":\"Orphan\"}");
        assertEquals(200, orphan.statusCode());
        assertEquals("orphan", JSON.readTree(orphan.body()).path("metadata").path("finalizers").get(0).asText());

        send("POST", CM, "{\"metadata\":{\"name\":\"c\",\"finalizers\":[\"example.com/hold\"]}}");
        assertEquals(202, send("DELETE", CM + "/c", "{\"orphanDependents\":false}").statusCode(),
                "a pending delete with orphanDependents=false is 202, as kube answers");

        HttpResponse<String> bad = send("DELETE", CM + "/c?propagationPolicy=Bogus", null);
        assertStatus(bad, 422, "Invalid");
        assertEquals("DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Bogus\": "
                + "supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"", JSON.readTree(bad.body())
                .path("message").asText());
    }

    // --- status subresource ---

    @Test
    void statusSubresource() throws Exception {
        HttpResponse<String> created = send("POST", WIDGETS, "{\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":1},"
                + "\"status\":{\"ready\":true}}");
        assertEquals(201, created.statusCode(), created.body());
        JsonNode w = JSON.readTree(created.body());
        assertTrue(w.path("status").isMissingNode(), "status is not set on create");
        assertEquals(1, w.path("metadata").path("generation").asInt());

        JsonNode patched = JSON.readTree(send("PATCH", WIDGETS + "/w", "{\"spec\":{\"size\":2},\"status\":{\"ready\":true}}",
                "application/merge-patch+json").body());
        assertEquals(2, patched.path("spec").path("size").asInt());
        assertTrue(patched.path("status").isMissingNode(), "the main resource ignores status");
        assertEquals(2, patched.path("metadata").path("generation").asInt());

        HttpResponse<String> status = send("PATCH", WIDGETS + "/w/status", "{\"spec\":{\"size\":9},\"status\":{\"ready\":true}}",
                "application/merge-patch+json");
        assertEquals(200, status.statusCode(), status.body());
        JsonNode s = JSON.readTree(status.body());
        assertEquals("Widget", s.path("kind").asText());
        assertTrue(s.path("status").path("ready").asBoolean());
        assertEquals(2, s.path("spec").path("size").asInt(), "/status ignores everything but status");
        assertEquals(2, s.path("metadata").path("generation").asInt());

        JsonNode current = JSON.readTree(get(WIDGETS + "/w/status", null).body());
        assertEquals(s, current);
        assertStatus(send("POST", WIDGETS + "/w/status", "{}"), 405, "MethodNotAllowed");
        assertStatus(send("DELETE", WIDGETS + "/w/status", null), 405, "MethodNotAllowed");

        JsonNode discovery = JSON.readTree(get("/apis/example.com/v1", null).body());
        JsonNode sub = null;
        for (JsonNode r : discovery.path("resources")) {
            if (r.path("name").asText().equals("widgets/status")) {
                sub = r;
            }
        }
        assertEquals(List.of("get", "patch", "update"), JSON.convertValue(sub.path("verbs"), List.class), discovery.toString());
        assertEquals("Widget", sub.path("kind").asText());
    }

    // --- bad input ---

    @Test
    void bodyOverThreeMebibytesIsTooLarge() throws Exception {
        String big = "{\"metadata\":{\"name\":\"big\"},\"data\":{\"k\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}}";

        assertStatus(send("POST", CM, big), 413, "RequestEntityTooLarge");
        HttpResponse<String> chunked = client.send(HttpRequest.newBuilder(server.base.resolve(CM))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertStatus(chunked, 413, "RequestEntityTooLarge");
        assertStatus(get(CM + "/big", null), 404, "NotFound");
    }

    @Test
    void deeplyNestedJsonIsBadRequest() throws Exception {
        int depth = 100_000;
        String arrays = "{\"metadata\":{\"name\":\"deep\"},\"spec\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
        assertStatus(send("POST", WIDGETS, arrays), 400, "BadRequest");
        String objects = "{\"metadata\":{\"name\":\"deep\"},\"spec\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}";
        assertStatus(send("POST", WIDGETS, objects), 400, "BadRequest");
        assertStatus(send("PATCH", WIDGETS + "/deep", objects, "application/merge-patch+json"), 400, "BadRequest");
        String yaml = "metadata:\n  name: deep\nspec: " + "[".repeat(depth) + "]".repeat(depth) + "\n";
        assertStatus(send("POST", WIDGETS, yaml, "application/yaml"), 400, "BadRequest");
        assertStatus(get(WIDGETS + "/deep", null), 404, "NotFound");
    }

    @Test
    void nestingUpToTheLimitIsServed() throws Exception {
        // Just under the parser's depth limit: stored, copied, patched and written back without a StackOverflowError.
        int depth = 990;
        String body = "{\"metadata\":{\"name\":\"deep\"},\"spec\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}";
        assertEquals(201, send("POST", WIDGETS, body).statusCode());
        assertEquals(200, send("PATCH", WIDGETS + "/deep", "{\"spec\":" + "{\"a\":".repeat(depth) + "2" + "}".repeat(depth) + "}",
                "application/merge-patch+json").statusCode());
        assertEquals(200, get(WIDGETS + "/deep", null).statusCode());
    }

    @Test
    void duplicateFieldsFollowFieldValidation() throws Exception {
        String dup = "{\"metadata\":{\"name\":\"d\"},\"data\":{\"k\":\"first\"},\"data\":{\"k\":\"last\"}}";

        HttpResponse<String> strict = send("POST", CM + "?fieldValidation=Strict", dup);
        assertStatus(strict, 400, "BadRequest");
        assertEquals("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
                + "duplicate field \"data\"", JSON.readTree(strict.body()).path("message").asText());

        HttpResponse<String> warn = send("POST", CM + "?fieldValidation=Warn", dup);
        assertEquals(201, warn.statusCode(), warn.body());
        assertEquals(List.of("299 - \"duplicate field \\\"data\\\"\""), warn.headers().allValues("Warning"));
        assertEquals("last", JSON.readTree(warn.body()).path("data").path("k").asText(), "the last duplicate wins");

        HttpResponse<String> byDefault = send("PUT", CM + "/d", dup);
        assertEquals(200, byDefault.statusCode(), "Warn is the default: " + byDefault.body());
        assertEquals(1, byDefault.headers().allValues("Warning").size());

        HttpResponse<String> ignore = send("PUT", CM + "/d?fieldValidation=Ignore", dup);
        assertEquals(200, ignore.statusCode());
        assertTrue(ignore.headers().allValues("Warning").isEmpty());

        HttpResponse<String> patch = send("PATCH", CM + "/d?fieldValidation=Strict", "{\"data\":{\"a\":\"1\",\"a\":\"2\"}}",
                "application/merge-patch+json");
        assertStatus(patch, 400, "BadRequest");
        assertEquals("strict decoding error: duplicate field \"data.a\"", JSON.readTree(patch.body()).path("message").asText());

        HttpResponse<String> yaml = send("POST", CM + "?fieldValidation=Strict",
                "metadata:\n  name: why\ndata:\n  k: a\n  k: b\n", "application/yaml");
        assertStatus(yaml, 400, "BadRequest");
        assertTrue(JSON.readTree(yaml.body()).path("message").asText().endsWith(
                "strict decoding error: yaml: unmarshal errors:\n  line 5: key \"k\" already set in map"), yaml.body());

        HttpResponse<String> bogus = send("POST", CM + "?fieldValidation=Loose", "{\"metadata\":{\"name\":\"z\"}}");
        assertStatus(bogus, 422, "Invalid");
        assertEquals("CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"Loose\": "
                + "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"", JSON.readTree(bogus.body()).path("message").asText());
    }

    @Test
    void unknownFieldsFollowFieldValidation() throws Exception {
        String body = "{\"metadata\":{\"name\":\"u\",\"bogus\":1,\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"K\","
                + "\"name\":\"o\",\"uid\":\"1\",\"extra\":{\"deep\":1}}]},\"spec\":{\"x\":1},\"spec\":2,"
                + "\"data\":{\"k\":\"v\"},\"data\":{\"k\":\"w\"}}";

        HttpResponse<String> strict = send("POST", CM + "?fieldValidation=Strict", body);
        assertStatus(strict, 400, "BadRequest");
        assertEquals("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
                + "unknown field \"metadata.bogus\", unknown field \"metadata.ownerReferences[0].extra\", "
                + "unknown field \"spec\", duplicate field \"data\"", JSON.readTree(strict.body()).path("message").asText());
        assertEquals(404, get(CM + "/u", null).statusCode(), "nothing stored");

        HttpResponse<String> warn = send("POST", CM + "?fieldValidation=Warn", body);
        assertEquals(201, warn.statusCode(), warn.body());
        assertEquals(List.of("299 - \"unknown field \\\"metadata.bogus\\\"\"",
                "299 - \"unknown field \\\"metadata.ownerReferences[0].extra\\\"\"",
                "299 - \"unknown field \\\"spec\\\"\"", "299 - \"duplicate field \\\"data\\\"\""),
                warn.headers().allValues("Warning"));
        JsonNode stored = JSON.readTree(get(CM + "/u", null).body());
        assertFalse(stored.has("spec"), "an unknown field is dropped");
        assertFalse(stored.path("metadata").has("bogus"));
        assertFalse(stored.path("metadata").path("ownerReferences").get(0).has("extra"));
        assertEquals("o", stored.path("metadata").path("ownerReferences").get(0).path("name").asText());
        assertEquals("w", stored.path("data").path("k").asText());

        HttpResponse<String> ignore = send("PUT", CM + "/u?fieldValidation=Ignore",
                "{\"metadata\":{\"name\":\"u\"},\"data\":{\"k\":\"x\"},\"extra\":true}");
        assertEquals(200, ignore.statusCode(), ignore.body());
        assertTrue(ignore.headers().allValues("Warning").isEmpty());
        assertFalse(JSON.readTree(ignore.body()).has("extra"));

        HttpResponse<String> put = send("PUT", CM + "/u?fieldValidation=Strict", "{\"metadata\":{\"name\":\"u\"},\"extra\":true}");
        assertStatus(put, 400, "BadRequest");
        assertTrue(JSON.readTree(put.body()).path("message").asText().endsWith("strict decoding error: unknown field \"extra\""));

        HttpResponse<String> yaml = send("POST", CM + "?fieldValidation=Strict",
                "metadata:\n  name: why\n  zeta: 1\n  alpha: 2\ndata:\n  k: a\n  k: b\n", "application/yaml");
        assertStatus(yaml, 400, "BadRequest");
        assertTrue(JSON.readTree(yaml.body()).path("message").asText().endsWith("strict decoding error: yaml: unmarshal errors:\n"
                + "  line 7: key \"k\" already set in map, unknown field \"metadata.alpha\", unknown field \"metadata.zeta\""),
                yaml.body());
    }

    @Test
    void unknownFieldsOfEveryPatchType() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"p\"},\"data\":{\"k\":\"v\"}}");

        HttpResponse<String> merge = send("PATCH", CM + "/p?fieldValidation=Strict",
                "{\"zz\":1,\"spec\":{\"a\":1},\"data\":{\"k\":\"1\",\"k\":\"2\"}}", "application/merge-patch+json");
        assertStatus(merge, 400, "BadRequest");
        assertEquals("strict decoding error: duplicate field \"data.k\", unknown field \"spec\", unknown field \"zz\"",
                JSON.readTree(merge.body()).path("message").asText(), "the patch's problems, then the result's in name order");

        HttpResponse<String> smp = send("PATCH", CM + "/p", "{\"spec\":{\"a\":1},\"data\":{\"k\":\"2\"}}",
                "application/strategic-merge-patch+json");
        assertEquals(200, smp.statusCode(), smp.body());
        assertEquals(List.of("299 - \"unknown field \\\"spec\\\"\""), smp.headers().allValues("Warning"), "Warn by default");
        assertFalse(JSON.readTree(smp.body()).has("spec"));
        assertEquals("2", JSON.readTree(smp.body()).path("data").path("k").asText());

        HttpResponse<String> jsonPatch = send("PATCH", CM + "/p?fieldValidation=Strict",
                "[{\"op\":\"add\",\"path\":\"/extra\",\"value\":1,\"foo\":\"bar\"},"
                        + "{\"op\":\"add\",\"path\":\"/data/a\",\"path\":\"/data/b\",\"value\":\"1\"}]",
                "application/json-patch+json");
        assertStatus(jsonPatch, 400, "BadRequest");
        assertEquals("strict decoding error: json patch unknown field \"[0].foo\", json patch duplicate field \"[1].path\", "
                + "unknown field \"extra\"", JSON.readTree(jsonPatch.body()).path("message").asText());

        HttpResponse<String> ignored = send("PATCH", CM + "/p?fieldValidation=Ignore",
                "[{\"op\":\"add\",\"path\":\"/extra\",\"value\":1}]", "application/json-patch+json");
        assertEquals(200, ignored.statusCode(), ignored.body());
        assertTrue(ignored.headers().allValues("Warning").isEmpty());
        assertFalse(JSON.readTree(get(CM + "/p", null).body()).has("extra"));
    }

    @Test
    void strategicMergeFollowsTheSchemasMergeKeys() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"s\",\"ownerReferences\":["
                + "{\"apiVersion\":\"v1\",\"kind\":\"K\",\"name\":\"a\",\"uid\":\"1\"},"
                + "{\"apiVersion\":\"v1\",\"kind\":\"K\",\"name\":\"b\",\"uid\":\"2\"}]}}");

        HttpResponse<String> r = send("PATCH", CM + "/s", "{\"metadata\":{\"ownerReferences\":["
                + "{\"apiVersion\":\"v1\",\"kind\":\"K\",\"name\":\"b-renamed\",\"uid\":\"2\"},"
                + "{\"apiVersion\":\"v1\",\"kind\":\"K\",\"name\":\"c\",\"uid\":\"3\"}]}}",
                "application/strategic-merge-patch+json");
        assertEquals(200, r.statusCode(), r.body());
        List<String> owners = new java.util.ArrayList<>();
        JSON.readTree(r.body()).path("metadata").path("ownerReferences").forEach(o -> owners.add(o.path("name").asText()));
        assertEquals(List.of("a", "b-renamed", "c"), owners, "merged on uid, the schema's x-kubernetes-patch-merge-key");

        send("POST", WIDGETS, "{\"metadata\":{\"name\":\"l\"},\"spec\":{\"items\":[1,2]}}");
        HttpResponse<String> w = send("PATCH", WIDGETS + "/l", "{\"spec\":{\"items\":[3]}}", "application/strategic-merge-patch+json");
        assertEquals(200, w.statusCode(), w.body());
        assertEquals("[3]", JSON.readTree(w.body()).path("spec").path("items").toString(), "without a schema a list is replaced");
    }

    @Test
    void aResourceWithoutASchemaKeepsUnknownFields() throws Exception {
        HttpResponse<String> r = send("POST", WIDGETS + "?fieldValidation=Strict",
                "{\"metadata\":{\"name\":\"w\"},\"spec\":{\"anything\":1},\"extra\":true}");
        assertEquals(201, r.statusCode(), r.body());
        assertTrue(JSON.readTree(r.body()).path("extra").asBoolean());
        assertTrue(r.headers().allValues("Warning").isEmpty());
    }

    @Test
    void unsupportedVerbMediaTypeAndAccept() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"a\"}}");

        assertStatus(send("POST", CM + "/a", "{}"), 405, "MethodNotAllowed");
        assertStatus(get(CM + "/a", "application/xml"), 406, "NotAcceptable");
        assertStatus(send("POST", CM, "<configmap/>", "application/xml"), 415, "UnsupportedMediaType");
        assertStatus(send("PATCH", CM + "/a", "{}", "application/apply-patch+cbor"), 415, "UnsupportedMediaType");
        assertStatus(send("POST", CM, "{\"metadata\":"), 400, "BadRequest");
    }

    // --- helpers ---

    static void assertStatus(HttpResponse<String> r, int code, String reason) throws IOException {
        assertEquals(code, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText(), r.body());
        assertEquals("Failure", status.path("status").asText(), r.body());
        assertEquals(code, status.path("code").asInt(), r.body());
        assertEquals(reason, status.path("reason").asText(), r.body());
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        names.sort(null);
        return names;
    }

    private static String contentType(HttpResponse<?> r) {
        return r.headers().firstValue("Content-Type").orElse("");
    }

    HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path)).GET();
        if (accept != null) {
            b.header("Accept", accept);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        return send(method, path, body, "application/json");
    }

    HttpResponse<String> send(String method, String path, String body, String contentType) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", contentType);
        }
        // A fresh connection: a request refused before its body was read may leave the old one closing.
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
