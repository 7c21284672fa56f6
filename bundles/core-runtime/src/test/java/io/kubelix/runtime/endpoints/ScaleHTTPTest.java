package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scale subresource over real HTTP: an autoscaling/v1 Scale read from the parent, written back
 * into its replicas by PUT and by each patch type, with kube-apiserver's 404, 409, 422 and
 * discovery.
 */
class ScaleHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";
    private static final String WIDGET = "{\"metadata\":{\"name\":\"w\"},\"spec\":{\"replicas\":2,"
            + "\"selector\":{\"matchLabels\":{\"app\":\"w\"},\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\","
            + "\"values\":[\"b\",\"a\"]},{\"key\":\"legacy\",\"operator\":\"DoesNotExist\"}]}}}";

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
    void getAnswersTheParentsScale() throws Exception {
        JsonNode widget = JSON.readTree(send("POST", WIDGETS, WIDGET, "application/json").body());
        send("PUT", WIDGETS + "/w/status", "{\"metadata\":{\"name\":\"w\"},\"status\":{\"replicas\":1}}", "application/json");

        HttpResponse<String> r = send("GET", WIDGETS + "/w/scale", null, null);

        assertEquals(200, r.statusCode(), r.body());
        JsonNode scale = JSON.readTree(r.body());
        assertEquals("autoscaling/v1", scale.path("apiVersion").asText());
        assertEquals("Scale", scale.path("kind").asText());
        JsonNode meta = scale.path("metadata");
        assertEquals("w", meta.path("name").asText());
        assertEquals("default", meta.path("namespace").asText());
        assertEquals(widget.path("metadata").path("uid").asText(), meta.path("uid").asText());
        assertEquals(widget.path("metadata").path("creationTimestamp").asText(), meta.path("creationTimestamp").asText());
        assertFalse(meta.path("resourceVersion").asText().isEmpty());
        assertEquals(2, scale.path("spec").path("replicas").asInt());
        assertEquals(1, scale.path("status").path("replicas").asInt());
        assertEquals("app=w,!legacy,tier in (a,b)", scale.path("status").path("selector").asText());
    }

    @Test
    void aSelectorThatIsAMapOfLabelsIsReportedAsASelectorString() throws Exception {
        // A replication controller's spec.selector is a label set, not a metav1.LabelSelector.
        send("POST", WIDGETS, "{\"metadata\":{\"name\":\"m\"},\"spec\":{\"replicas\":1,"
                + "\"selector\":{\"tier\":\"b\",\"app\":\"m\"}}}", "application/json");

        JsonNode scale = JSON.readTree(send("GET", WIDGETS + "/m/scale", null, null).body());

        assertEquals("app=m,tier=b", scale.path("status").path("selector").asText());
    }

    @Test
    void putSetsTheParentsReplicasAndBumpsItsGeneration() throws Exception {
        send("POST", WIDGETS, WIDGET, "application/json");

        HttpResponse<String> r = send("PUT", WIDGETS + "/w/scale",
                "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"replicas\":5}}",
                "application/json");

        assertEquals(200, r.statusCode(), r.body());
        assertEquals(5, JSON.readTree(r.body()).path("spec").path("replicas").asInt());
        JsonNode widget = JSON.readTree(send("GET", WIDGETS + "/w", null, null).body());
        assertEquals(5, widget.path("spec").path("replicas").asInt());
        assertEquals(2, widget.path("metadata").path("generation").asInt(), "a spec change bumps the generation");
        assertEquals("w", widget.path("spec").path("selector").path("matchLabels").path("app").asText(), "the rest is kept");
    }

    @Test
    void everyPatchTypeScales() throws Exception {
        send("POST", WIDGETS, WIDGET, "application/json");
        String[][] patches = {
                {"application/merge-patch+json", "{\"spec\":{\"replicas\":3}}", "3"},
                {"application/strategic-merge-patch+json", "{\"spec\":{\"replicas\":4}}", "4"},
                {"application/json-patch+json", "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":0}]", "0"},
        };
        for (String[] p : patches) {
            HttpResponse<String> r = send("PATCH", WIDGETS + "/w/scale", p[1], p[0]);

            assertEquals(200, r.statusCode(), p[0] + ": " + r.body());
            assertEquals("autoscaling/v1", JSON.readTree(r.body()).path("apiVersion").asText());
            assertEquals(p[2], JSON.readTree(send("GET", WIDGETS + "/w", null, null).body())
                    .path("spec").path("replicas").asText(), p[0]);
        }
    }

    @Test
    void aStaleResourceVersionIsAConflict() throws Exception {
        String rv = JSON.readTree(send("POST", WIDGETS, WIDGET, "application/json").body())
                .path("metadata").path("resourceVersion").asText();
        send("PATCH", WIDGETS + "/w", "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}", "application/merge-patch+json");

        HttpResponse<String> r = send("PUT", WIDGETS + "/w/scale",
                "{\"metadata\":{\"name\":\"w\",\"resourceVersion\":\"" + rv + "\"},\"spec\":{\"replicas\":7}}",
                "application/json");

        assertEquals(409, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Conflict", status.path("reason").asText());
        assertEquals("Operation cannot be fulfilled on widgets.example.com \"w\": the object has been modified; please "
                + "apply your changes to the latest version and try again", status.path("message").asText());
        assertEquals(2, JSON.readTree(send("GET", WIDGETS + "/w", null, null).body()).path("spec").path("replicas").asInt());
    }

    @Test
    void negativeReplicasAreInvalid() throws Exception {
        send("POST", WIDGETS, WIDGET, "application/json");

        HttpResponse<String> r = send("PATCH", WIDGETS + "/w/scale", "{\"spec\":{\"replicas\":-1}}",
                "application/merge-patch+json");

        assertEquals(422, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Scale.autoscaling \"w\" is invalid: spec.replicas: Invalid value: -1: must be greater than or "
                + "equal to 0", status.path("message").asText());
        assertEquals("spec.replicas", status.path("details").path("causes").get(0).path("field").asText());
        assertEquals("Scale", status.path("details").path("kind").asText());
    }

    @Test
    void aMissingParentIsNotFound() throws Exception {
        HttpResponse<String> get = send("GET", WIDGETS + "/nope/scale", null, null);
        assertEquals(404, get.statusCode(), get.body());
        // As kube's ScaleREST.Get: the subresource is what is not found.
        JsonNode getStatus = JSON.readTree(get.body());
        assertEquals("widgets/scale.example.com \"nope\" not found", getStatus.path("message").asText());
        assertEquals("widgets/scale", getStatus.path("details").path("kind").asText());
        assertEquals("example.com", getStatus.path("details").path("group").asText());

        HttpResponse<String> put = send("PUT", WIDGETS + "/nope/scale", "{\"spec\":{\"replicas\":1}}", "application/json");
        assertEquals(404, put.statusCode(), put.body());
        assertEquals("widgets/scale.example.com \"nope\" not found", JSON.readTree(put.body()).path("message").asText());

        HttpResponse<String> patch = send("PATCH", WIDGETS + "/nope/scale", "{\"spec\":{\"replicas\":1}}",
                "application/merge-patch+json");
        assertEquals(404, patch.statusCode(), patch.body());
    }

    @Test
    void aScaleOfAnotherNameOrKindIsABadRequest() throws Exception {
        send("POST", WIDGETS, WIDGET, "application/json");

        HttpResponse<String> other = send("PUT", WIDGETS + "/w/scale", "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"replicas\":1}}",
                "application/json");
        assertEquals(400, other.statusCode(), other.body());
        HttpResponse<String> kind = send("PUT", WIDGETS + "/w/scale", "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
                + "\"spec\":{\"replicas\":1}}", "application/json");
        assertEquals(400, kind.statusCode(), kind.body());
        HttpResponse<String> text = send("PUT", WIDGETS + "/w/scale", "{\"spec\":{\"replicas\":\"many\"}}", "application/json");
        assertEquals(400, text.statusCode(), text.body());
        HttpResponse<String> spec = send("PATCH", WIDGETS + "/w/scale", "{\"spec\":\"x\"}", "application/merge-patch+json");
        assertEquals(400, spec.statusCode(), spec.body());
        assertEquals(2, JSON.readTree(send("GET", WIDGETS + "/w", null, null).body()).path("spec").path("replicas").asInt());
    }

    @Test
    void aTableHasKubesScaleColumns() throws Exception {
        send("POST", WIDGETS, WIDGET, "application/json");

        HttpResponse<String> r = send("GET", WIDGETS + "/w/scale", null, null,
                "application/json;as=Table;v=v1;g=meta.k8s.io");

        assertEquals(200, r.statusCode(), r.body());
        JsonNode table = JSON.readTree(r.body());
        assertEquals("[\"Name\",\"Desired\",\"Available\",\"Age\"]", table.path("columnDefinitions").findValuesAsText("name")
                .stream().map(n -> "\"" + n + "\"").toList().toString().replace(" ", ""));
        JsonNode cells = table.path("rows").get(0).path("cells");
        assertEquals("w", cells.get(0).asText());
        assertEquals(2, cells.get(1).asInt());
        assertEquals(0, cells.get(2).asInt());
    }

    @Test
    void discoveryListsScaleAsAutoscalingV1() throws Exception {
        JsonNode list = JSON.readTree(send("GET", "/apis/example.com/v1", null, null).body());
        JsonNode scale = null;
        for (JsonNode r : list.path("resources")) {
            if (r.path("name").asText().equals("widgets/scale")) {
                scale = r;
            }
            if (r.path("name").asText().equals("widgets")) {
                assertFalse(r.has("group"), "a resource of the group's own kind names no group");
            }
        }
        assertTrue(scale != null, list::toString);
        assertEquals("autoscaling", scale.path("group").asText());
        assertEquals("v1", scale.path("version").asText());
        assertEquals("Scale", scale.path("kind").asText());
        assertEquals("[\"get\",\"patch\",\"update\"]", scale.path("verbs").toString());

        HttpResponse<String> agg = send("GET", "/apis", null, null,
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
        JsonNode kind = null;
        for (JsonNode g : JSON.readTree(agg.body()).path("items")) {
            for (JsonNode r : g.path("versions").get(0).path("resources")) {
                for (JsonNode sub : r.path("subresources")) {
                    if (sub.path("subresource").asText().equals("scale")) {
                        kind = sub.path("responseKind");
                    }
                }
            }
        }
        assertEquals("{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"}", String.valueOf(kind));
    }

    private HttpResponse<String> send(String method, String path, String body, String contentType) throws Exception {
        return send(method, path, body, contentType, "application/json");
    }

    private HttpResponse<String> send(String method, String path, String body, String contentType, String accept)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path)).header("Accept", accept)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", contentType);
        }
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
