package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.GroupVersionKindProvider;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.runtime.registry.AdmissionChains;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link NamedCreater} subresource over real HTTP: POST with the name from the URL, the body's
 * kind checked, admission run as a CREATE of the subresource, a Status answered 201, discovery
 * listing the verb {@code create} with the body's group, version and kind.
 */
class NamedCreateHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOUCH = "/apis/named.example.com/v1/namespaces/default/gadgets/g1/touch";

    private InProcessAPIServer server;
    /** What the subresource was called with: namespace/name/body name. */
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final List<AdmissionAttributes> admitted = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = new InProcessAPIServer();
        AdmissionChains.add(server.admission, new ValidatingAdmissionPlugin() {
            @Override
            public String name() {
                return "Recorder";
            }

            @Override
            public void validate(AdmissionAttributes attributes) {
                admitted.add(attributes);
                if (attributes.object() != null && attributes.object().path("metadata").path("labels").has("deny")) {
                    throw StatusException.forbidden(attributes.resource().groupResource(), attributes.name(), "denied");
                }
            }
        });
        server.api.addProvider(new RESTStorageProvider() {
            @Override
            public String groupName() {
                return "named.example.com";
            }

            @Override
            public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
                return new APIGroupInfo("named.example.com", List.of("v1"), Map.of("v1", Map.<String, RESTStorage>of(
                        "gadgets/touch", new Touch())));
            }
        }, Map.of("service.id", 99L));
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void postCallsTheSubresourceWithTheNameFromTheURLAndAnswersItsStatus() throws Exception {
        HttpResponse<String> r = send("POST", TOUCH, "{\"apiVersion\":\"other.example.com/v2\",\"kind\":\"Touch\","
                + "\"metadata\":{\"name\":\"g1\"}}");

        assertEquals(201, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("Success", status.path("status").asText());
        assertEquals(201, status.path("code").asInt());
        assertEquals(List.of("default/g1/g1"), calls);
        AdmissionAttributes a = admitted.get(0);
        assertEquals("touch", a.subresource());
        assertEquals("gadgets", a.resource().resource());
        assertEquals("Touch", a.kind().kind());
        assertEquals("other.example.com", a.kind().group());
        assertEquals("g1", a.name());
        assertEquals("default", a.namespace());
    }

    @Test
    void admissionCanRefuseIt() throws Exception {
        HttpResponse<String> r = send("POST", TOUCH, "{\"metadata\":{\"name\":\"g1\",\"labels\":{\"deny\":\"1\"}}}");

        assertEquals(403, r.statusCode(), r.body());
        assertTrue(calls.isEmpty());
    }

    @Test
    void aBodyOfAnotherKindIsABadRequest() throws Exception {
        HttpResponse<String> r = send("POST", TOUCH, "{\"apiVersion\":\"other.example.com/v2\",\"kind\":\"Pod\"}");

        assertEquals(400, r.statusCode(), r.body());
        assertTrue(JSON.readTree(r.body()).path("message").asText().contains("does not match the expected kind (Touch)"));
        assertTrue(calls.isEmpty());
    }

    @Test
    void theSubresourcesErrorsAreAnswered() throws Exception {
        HttpResponse<String> r = send("POST", TOUCH, "{\"metadata\":{\"name\":\"other\"}}");

        assertEquals(400, r.statusCode(), r.body());
    }

    @Test
    void otherVerbsAreNotAllowed() throws Exception {
        assertEquals(405, send("GET", TOUCH, null).statusCode());
        assertEquals(405, send("PUT", TOUCH, "{}").statusCode());
    }

    @Test
    void discoveryListsCreateWithTheBodysKind() throws Exception {
        JsonNode list = JSON.readTree(send("GET", "/apis/named.example.com/v1", null).body());
        JsonNode touch = null;
        for (JsonNode r : list.path("resources")) {
            if (r.path("name").asText().equals("gadgets/touch")) {
                touch = r;
            }
        }
        assertEquals("[\"create\"]", String.valueOf(touch.path("verbs")), String.valueOf(list));
        assertEquals("Touch", touch.path("kind").asText());
        assertEquals("other.example.com", touch.path("group").asText());
    }

    @Test
    void openAPIDescribesThePost() throws Exception {
        JsonNode doc = JSON.readTree(send("GET", "/openapi/v3/apis/named.example.com/v1", null).body());
        JsonNode post = doc.path("paths").path("/apis/named.example.com/v1/namespaces/{namespace}/gadgets/{name}/touch")
                .path("post");
        assertEquals("post", post.path("x-kubernetes-action").asText(), doc.path("paths").toString());
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path)).header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** gadgets/touch: records the call and answers Success; a body naming another object is a 400. */
    private final class Touch implements NamedCreater, GroupVersionKindProvider {
        @Override
        public ObjectNode create(RequestContext ctx, String name, ObjectNode obj, CreateOptions options) {
            String bodyName = obj.path("metadata").path("name").asText("");
            if (!bodyName.equals(name)) {
                throw StatusException.badRequest("name in URL does not match name in Touch object");
            }
            calls.add(ctx.namespace() + "/" + name + "/" + bodyName);
            ObjectNode status = JSON.createObjectNode();
            status.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
            status.put("status", "Success");
            return status;
        }

        @Override
        public GroupVersionKind groupVersionKind(GroupVersion containingGV) {
            return new GroupVersionKind("other.example.com", "v2", "Touch");
        }

        @Override
        public String kind() {
            return "Touch";
        }

        @Override
        public boolean namespaced() {
            return true;
        }

        @Override
        public String singularName() {
            return "";
        }
    }
}
