package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static io.kubelix.runtime.endpoints.ResourceHTTPTest.CM;
import static io.kubelix.runtime.endpoints.ResourceHTTPTest.JSON;
import static io.kubelix.runtime.endpoints.ResourceHTTPTest.WIDGETS;
import static io.kubelix.runtime.endpoints.ResourceHTTPTest.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Server-side apply and managedFields over real HTTP: the request options, status codes and Status bodies. */
class ApplyHTTPTest {
    private static final String APPLY = "application/apply-patch+yaml";
    private InProcessAPIServer server;

    @BeforeEach
    void start() throws Exception {
        server = new InProcessAPIServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void applyNeedsAFieldManager() throws Exception {
        HttpResponse<String> r = send("PATCH", CM + "/a", "apiVersion: v1\nkind: ConfigMap\n", APPLY, null);
        assertStatus(r, 422, "Invalid");
        assertEquals("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
                JSON.readTree(r.body()).path("message").asText());
        HttpResponse<String> force = send("PATCH", CM + "/a?force=true", "{}", "application/merge-patch+json", null);
        assertStatus(force, 422, "Invalid");
        assertEquals("PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch",
                JSON.readTree(force.body()).path("message").asText());
    }

    @Test
    void applyCreatesThenConflictsThenForces() throws Exception {
        HttpResponse<String> created = send("PATCH", CM + "/a?fieldManager=one",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n", APPLY, null);
        assertEquals(201, created.statusCode(), created.body());
        JsonNode entry = JSON.readTree(created.body()).path("metadata").path("managedFields").get(0);
        assertEquals("one", entry.path("manager").asText());
        assertEquals("Apply", entry.path("operation").asText());
        assertEquals("{\"f:data\":{\"f:k\":{}}}", entry.path("fieldsV1").toString());

        String other = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"w\"}}";
        HttpResponse<String> conflict = send("PATCH", CM + "/a?fieldManager=two", other, APPLY, null);
        assertStatus(conflict, 409, "Conflict");
        JsonNode status = JSON.readTree(conflict.body());
        assertEquals("Apply failed with 1 conflict: conflict with \"one\": .data.k", status.path("message").asText());
        JsonNode cause = status.path("details").path("causes").get(0);
        assertEquals("FieldManagerConflict", cause.path("reason").asText(), conflict.body());
        assertEquals(".data.k", cause.path("field").asText());
        assertEquals("conflict with \"one\"", cause.path("message").asText());

        HttpResponse<String> forced = send("PATCH", CM + "/a?fieldManager=two&force=true", other, APPLY, null);
        assertEquals(200, forced.statusCode(), forced.body());
        assertEquals("w", JSON.readTree(forced.body()).path("data").path("k").asText());

        HttpResponse<String> wrongVersion = send("PATCH", CM + "/a?fieldManager=two",
                "apiVersion: v2\nkind: ConfigMap\nmetadata:\n  name: a\n", APPLY, null);
        assertStatus(wrongVersion, 400, "BadRequest");
        HttpResponse<String> wrongName = send("PATCH", CM + "/a?fieldManager=two",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n", APPLY, null);
        assertStatus(wrongName, 400, "BadRequest");
    }

    /** Every boolean query parameter reads as kube reads it: false only for "0" and "false" in any case. */
    @Test
    void forceIsReadAsKubeReadsBooleans() throws Exception {
        send("PATCH", CM + "/a?fieldManager=one", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}", APPLY, null);
        String other = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"%s\"}}";

        for (String no : new String[]{"False", "FALSE", "0"}) {
            assertStatus(send("PATCH", CM + "/a?fieldManager=two&force=" + no, other.formatted(no), APPLY, null),
                    409, "Conflict");
        }
        // What the Python client sends, and other values that are not "false" or "0".
        for (String yes : new String[]{"True", "TRUE", "yes", ""}) {
            HttpResponse<String> forced = send("PATCH", CM + "/a?fieldManager=two&force=" + yes, other.formatted(
                    "w" + yes), APPLY, null);
            assertEquals(200, forced.statusCode(), "force=" + yes + ": " + forced.body());
            assertEquals("w" + yes, JSON.readTree(forced.body()).path("data").path("k").asText());
        }
    }

    @Test
    void badConfigurationsAre400AndUnknownFieldsFollowFieldValidation() throws Exception {
        assertStatus(send("PATCH", CM + "/y?fieldManager=one", "data: [unclosed", APPLY, null), 400, "BadRequest");
        String unknown = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\nspecial: 1\ndata:\n  a: b\n";
        HttpResponse<String> strict = send("PATCH", CM + "/y?fieldManager=one&fieldValidation=Strict", unknown, APPLY, null);
        assertStatus(strict, 400, "BadRequest");
        assertEquals("strict decoding error: unknown field \"special\"", JSON.readTree(strict.body()).path("message").asText());
        HttpResponse<String> warned = send("PATCH", CM + "/y?fieldManager=one&fieldValidation=Warn", unknown, APPLY, null);
        assertEquals(201, warned.statusCode(), warned.body());
        assertEquals(java.util.List.of("299 - \"unknown field \\\"special\\\"\""), warned.headers().allValues("Warning"));
        JsonNode created = JSON.readTree(warned.body());
        assertFalse(created.has("special"), warned.body());
        assertEquals("{\"f:data\":{\"f:a\":{}}}", created.path("metadata").path("managedFields").get(0)
                .path("fieldsV1").toString(), "an unknown field is owned by nobody");
    }

    @Test
    void applyDryRunStoresNothing() throws Exception {
        HttpResponse<String> dry = send("PATCH", CM + "/d?fieldManager=one&dryRun=All",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n", APPLY, null);
        assertEquals(201, dry.statusCode(), dry.body());
        assertEquals(404, send("GET", CM + "/d", null, null, null).statusCode());
    }

    @Test
    void writesRecordTheirManagerFromTheParameterOrTheUserAgent() throws Exception {
        HttpResponse<String> created = send("POST", CM, "{\"metadata\":{\"name\":\"u\"},\"data\":{\"a\":\"1\"}}",
                "application/json", "kubectl-create/v1.32.0 (linux/amd64) kubernetes/abc");
        JsonNode entry = JSON.readTree(created.body()).path("metadata").path("managedFields").get(0);
        assertEquals("kubectl-create", entry.path("manager").asText());
        assertEquals("Update", entry.path("operation").asText());
        assertEquals("v1", entry.path("apiVersion").asText());
        assertEquals("{\"f:data\":{\".\":{},\"f:a\":{}}}", entry.path("fieldsV1").toString());

        HttpResponse<String> patched = send("PATCH", CM + "/u?fieldManager=editor",
                "{\"data\":{\"a\":\"2\"}}", "application/merge-patch+json", null);
        JsonNode managed = JSON.readTree(patched.body()).path("metadata").path("managedFields");
        assertEquals(2, managed.size(), patched.body());
        assertEquals("{\"f:data\":{\"f:a\":{}}}", entry(managed, "editor").path("fieldsV1").toString());
        assertEquals("{\"f:data\":{}}", entry(managed, "kubectl-create").path("fieldsV1").toString(),
                "the creator lost data.a");
    }

    @Test
    void statusWritesRecordTheSubresource() throws Exception {
        send("POST", WIDGETS, "{\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":1}}", "application/json", null);
        HttpResponse<String> status = send("PATCH", WIDGETS + "/w/status?fieldManager=ctl",
                "{\"status\":{\"ready\":true}}", "application/merge-patch+json", null);
        assertEquals(200, status.statusCode(), status.body());
        JsonNode managed = JSON.readTree(status.body()).path("metadata").path("managedFields");
        JsonNode entry = entry(managed, "ctl");
        assertEquals("status", entry.path("subresource").asText());
        assertEquals("{\"f:status\":{\".\":{},\"f:ready\":{}}}", entry.path("fieldsV1").toString());
        assertFalse(entry(managed, "Java-http-client").path("fieldsV1").has("f:status"), managed.toString());
    }

    @Test
    void scaleWritesOwnTheReplicasTheyChange() throws Exception {
        String widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: s\nspec:\n  size: 1\n  replicas: 1\n";
        assertEquals(201, send("PATCH", WIDGETS + "/s?fieldManager=app", widget, APPLY, null).statusCode());
        HttpResponse<String> scaled = send("PATCH", WIDGETS + "/s/scale?fieldManager=kubectl-scale",
                "{\"spec\":{\"replicas\":3}}", "application/merge-patch+json", null);
        assertEquals(200, scaled.statusCode(), scaled.body());
        JsonNode managed = JSON.readTree(send("GET", WIDGETS + "/s", null, null, null).body())
                .path("metadata").path("managedFields");
        JsonNode scale = entry(managed, "kubectl-scale");
        assertEquals("scale", scale.path("subresource").asText(), managed.toString());
        assertEquals("example.com/v1", scale.path("apiVersion").asText());
        assertEquals("{\"f:spec\":{\"f:replicas\":{}}}", scale.path("fieldsV1").toString());
        assertFalse(entry(managed, "app").path("fieldsV1").path("f:spec").has("f:replicas"), managed.toString());

        HttpResponse<String> conflict = send("PATCH", WIDGETS + "/s?fieldManager=app", widget, APPLY, null);
        assertStatus(conflict, 409, "Conflict");
        assertEquals("Apply failed with 1 conflict: conflict with \"kubectl-scale\" with subresource \"scale\" using "
                + "example.com/v1: .spec.replicas", JSON.readTree(conflict.body()).path("message").asText());
    }

    private static JsonNode entry(JsonNode managedFields, String manager) {
        for (JsonNode e : managedFields) {
            if (e.path("manager").asText().equals(manager)) {
                return e;
            }
        }
        throw new AssertionError("no entry of " + manager + " in " + managedFields);
    }

    private HttpResponse<String> send(String method, String path, String body, String contentType, String userAgent)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", contentType);
        }
        if (userAgent != null) {
            b.header("User-Agent", userAgent);
        }
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
