package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The published OpenAPI documents: v3 per group version with schemas, v2 in JSON and protobuf, ETags, and rebuilding when groups change. */
class OpenAPIHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAP = "io.k8s.api.core.v1.ConfigMap";
    private static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    private static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
    private static final String PROTOBUF_DEPRECATED = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

    private InProcessAPIServer server;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws Exception {
        server = new InProcessAPIServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void v3DocumentCarriesTheKindsSchemasAndPathsReferToThem() throws Exception {
        JsonNode doc = JSON.readTree(get("/openapi/v3/api/v1", null).body());
        JsonNode schemas = doc.path("components").path("schemas");
        JsonNode cm = schemas.path(CONFIGMAP);
        assertEquals("object", cm.path("type").asText());
        JsonNode gvk = cm.path("x-kubernetes-group-version-kind");
        assertEquals(1, gvk.size());
        assertEquals("", gvk.get(0).path("group").asText());
        assertEquals("ConfigMap", gvk.get(0).path("kind").asText());
        assertEquals("v1", gvk.get(0).path("version").asText());
        assertTrue(schemas.has(OBJECT_META), "what the kind refers to is published with it");
        assertTrue(schemas.has("io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"));
        assertFalse(schemas.path(OBJECT_META).has("x-kubernetes-group-version-kind"), "only kinds carry a GVK");

        JsonNode item = doc.path("paths").path("/api/v1/namespaces/{namespace}/configmaps/{name}");
        assertEquals("#/components/schemas/" + CONFIGMAP, item.path("get").path("responses").path("200").path("content")
                .path("application/json").path("schema").path("$ref").asText());
        assertEquals("#/components/schemas/" + CONFIGMAP, item.path("put").path("requestBody").path("content")
                .path("*/*").path("schema").path("$ref").asText());

        JsonNode widgets = JSON.readTree(get("/openapi/v3/apis/example.com/v1", null).body());
        assertTrue(widgets.path("components").path("schemas").isEmpty(), "widgets have no schema");
        assertEquals("object", widgets.path("paths").path("/apis/example.com/v1/namespaces/{namespace}/widgets/{name}")
                .path("get").path("responses").path("200").path("content").path("application/json").path("schema")
                .path("type").asText());
    }

    @Test
    void v2DocumentHasDefinitionsWithV2References() throws Exception {
        HttpResponse<String> r = get("/openapi/v2", null);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode doc = JSON.readTree(r.body());
        assertEquals("2.0", doc.path("swagger").asText());
        JsonNode metadata = doc.path("definitions").path(CONFIGMAP).path("properties").path("metadata");
        assertEquals("#/definitions/" + OBJECT_META, metadata.path("$ref").asText());
        assertFalse(metadata.has("allOf"));
        assertEquals("Standard object's metadata.", metadata.path("description").asText());
        JsonNode owners = doc.path("definitions").path(OBJECT_META).path("properties").path("ownerReferences");
        assertEquals("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference", owners.path("items").path("$ref").asText());
        assertEquals("uid", owners.path("x-kubernetes-patch-merge-key").asText());
        assertEquals("ConfigMap", doc.path("definitions").path(CONFIGMAP).path("x-kubernetes-group-version-kind").get(0)
                .path("kind").asText());

        JsonNode create = doc.path("paths").path("/api/v1/namespaces/{namespace}/configmaps").path("post");
        JsonNode body = create.path("parameters").get(0);
        assertEquals("body", body.path("in").asText());
        assertEquals("#/definitions/" + CONFIGMAP, body.path("schema").path("$ref").asText());
        assertTrue(create.path("parameters").findValues("name").stream().anyMatch(n -> n.asText().equals("fieldValidation")));
        assertEquals("string", create.path("parameters").get(1).path("type").asText());
        assertTrue(doc.path("paths").has("/apis/example.com/v1/namespaces/{namespace}/widgets"));
    }

    @Test
    void aggregatedDiscoveryHasAnETagAnswersNotModifiedAndChangesWhenAGroupComes() throws Exception {
        String accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
        HttpResponse<String> first = discovery(accept, null);
        assertEquals(200, first.statusCode(), first.body());
        String etag = first.headers().firstValue("ETag").orElseThrow();
        assertEquals(first.body(), discovery(accept, null).body(), "the same document while nothing changes");
        HttpResponse<String> again = discovery(accept, etag);
        assertEquals(304, again.statusCode());
        assertEquals("", again.body());
        assertEquals(200, discovery(accept.replace("v=v2", "v=v2beta1"), etag).statusCode(),
                "each version has its own document and ETag");

        addGroup("later.example.com", "gizmos", "Gizmo", 4L);

        HttpResponse<String> changed = discovery(accept, etag);
        assertEquals(200, changed.statusCode(), "the old ETag no longer matches");
        assertNotEquals(etag, changed.headers().firstValue("ETag").orElseThrow());
        assertTrue(changed.body().contains("\"later.example.com\""), changed.body());
    }

    /** Installs a group of one resource with the configmap schema, as a plugin that arrives late would. */
    private void addGroup(String group, String resource, String kind, long serviceId) {
        server.api.addProvider(new RESTStorageProvider() {
            @Override
            public String groupName() {
                return group;
            }

            @Override
            public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
                RESTStorage storage = getter.newStore(io.kubelix.api.registry.StoreSpec.builder(
                        io.kubelix.api.schema.GroupResource.of(group, resource), kind)
                        .schema(InProcessAPIServer.configMapSchema()).strategy(new NoChecks()).build());
                return new APIGroupInfo(group, List.of("v1"), Map.of("v1", Map.of(resource, storage)));
            }
        }, Map.of("service.id", serviceId));
    }

    private HttpResponse<String> discovery(String accept, String ifNoneMatch) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve("/apis")).header("Accept", accept).GET();
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void etagsAnswerNotModifiedAndChangeWhenAGroupComes() throws Exception {
        for (String path : List.of("/openapi/v2", "/openapi/v3", "/openapi/v3/api/v1")) {
            HttpResponse<String> first = get(path, null);
            String etag = first.headers().firstValue("ETag").orElseThrow();
            HttpResponse<String> again = get(path, etag);
            assertEquals(304, again.statusCode(), path);
            assertEquals("", again.body());
        }
        String rootEtag = get("/openapi/v3", null).headers().firstValue("ETag").orElseThrow();
        String v2Etag = get("/openapi/v2", null).headers().firstValue("ETag").orElseThrow();

        addGroup("late.example.com", "gadgets", "Gadget", 3L);

        HttpResponse<String> root = get("/openapi/v3", rootEtag);
        assertEquals(200, root.statusCode(), "the old ETag no longer matches");
        assertTrue(JSON.readTree(root.body()).path("paths").has("apis/late.example.com/v1"));
        assertNotEquals(v2Etag, get("/openapi/v2", null).headers().firstValue("ETag").orElseThrow());
        JsonNode late = JSON.readTree(get("/openapi/v3/apis/late.example.com/v1", null).body());
        assertEquals("Gadget", late.path("components").path("schemas").path(CONFIGMAP)
                .path("x-kubernetes-group-version-kind").get(0).path("kind").asText());
        assertEquals(404, get("/openapi/v3/apis/nothing.example.com/v1", null).statusCode());
    }

    @Test
    void v2IsServedAsGnosticProtobufWhenAskedFor() throws Exception {
        String jsonEtag = get("/openapi/v2", null).headers().firstValue("ETag").orElseThrow();
        HttpResponse<byte[]> r = getBytes("/openapi/v2", PROTOBUF_DEPRECATED, null);
        assertEquals(200, r.statusCode());
        assertEquals("application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
                r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(jsonEtag, r.headers().firstValue("ETag").orElseThrow(), "both forms share the JSON form's ETag");
        assertEquals("Accept", r.headers().firstValue("Vary").orElseThrow());

        // Document: swagger = 1, definitions = 9 (NamedSchema: name 1, Schema 2).
        UnknownFieldSet doc = UnknownFieldSet.parseFrom(r.body());
        assertEquals("2.0", doc.getField(1).getLengthDelimitedList().get(0).toStringUtf8());
        UnknownFieldSet configMap = named(message(doc, 9), 1, CONFIGMAP);
        // Schema: type = 22 (TypeItem: repeated value 1), properties = 25, vendor_extension = 31.
        assertEquals("object", message(configMap, 22).getField(1).getLengthDelimitedList().get(0).toStringUtf8());
        UnknownFieldSet metadata = named(message(configMap, 25), 1, "metadata");
        assertEquals("#/definitions/" + OBJECT_META, metadata.getField(1).getLengthDelimitedList().get(0).toStringUtf8());
        UnknownFieldSet gvk = named(configMap, 31, "x-kubernetes-group-version-kind");
        JsonNode gvkValue = JSON.readTree(gvk.getField(2).getLengthDelimitedList().get(0).toStringUtf8());
        assertEquals("ConfigMap", gvkValue.get(0).path("kind").asText(), "Any.yaml holds the extension's value");

        // Paths = 8 (NamedPathItem 2), post = 4, parameters = 8: ParametersItem.parameter 1,
        // Parameter.non_body_parameter 2, query_parameter_sub_schema 3, name 4 (what kubectl looks
        // for to learn that the server validates fields).
        UnknownFieldSet create = message(named(message(doc, 8), 2, "/api/v1/namespaces/{namespace}/configmaps"), 4);
        List<String> queryParams = create.getField(8).getLengthDelimitedList().stream()
                .map(OpenAPIHTTPTest::parse)
                .filter(p -> message(p, 1).hasField(2))
                .map(p -> message(message(message(p, 1), 2), 3).getField(4).getLengthDelimitedList().get(0).toStringUtf8())
                .toList();
        assertTrue(queryParams.contains("fieldValidation"), queryParams.toString());
        UnknownFieldSet body = message(message(parse(create.getField(8).getLengthDelimitedList().get(0)), 1), 1);
        assertEquals("body", body.getField(3).getLengthDelimitedList().get(0).toStringUtf8());

        assertEquals(304, getBytes("/openapi/v2", PROTOBUF, jsonEtag).statusCode());
    }

    @Test
    void v2NegotiatesAsKubeOpenAPI() throws Exception {
        assertEquals("application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
                getBytes("/openapi/v2", PROTOBUF_DEPRECATED + ", application/json;q=0.9", null)
                        .headers().firstValue("Content-Type").orElseThrow());
        HttpResponse<byte[]> json = getBytes("/openapi/v2", PROTOBUF + ";q=0.5, application/json", null);
        assertEquals("2.0", JSON.readTree(json.body()).path("swagger").asText());
        assertEquals("2.0", JSON.readTree(getBytes("/openapi/v2", "*/*", null).body()).path("swagger").asText());
        HttpResponse<byte[]> refused = getBytes("/openapi/v2", "text/html", null);
        assertEquals(406, refused.statusCode());
        assertEquals(0, refused.body().length, "kube-openapi answers a bare 406");

        HttpResponse<byte[]> v3 = getBytes("/openapi/v3/api/v1", PROTOBUF, null);
        assertEquals(406, v3.statusCode(), "v3 is served in JSON only");
    }

    private HttpResponse<byte[]> getBytes(String path, String accept, String ifNoneMatch) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path)).header("Accept", accept).GET();
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static UnknownFieldSet parse(ByteString bytes) {
        try {
            return UnknownFieldSet.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static UnknownFieldSet message(UnknownFieldSet m, int field) {
        return parse(m.getField(field).getLengthDelimitedList().get(0));
    }

    /** The value (field 2) of the gnostic {@code Named*} pair in {@code field} whose name (field 1) is {@code name}. */
    private static UnknownFieldSet named(UnknownFieldSet m, int field, String name) {
        for (ByteString pair : m.getField(field).getLengthDelimitedList()) {
            UnknownFieldSet p = parse(pair);
            if (p.getField(1).getLengthDelimitedList().get(0).toStringUtf8().equals(name)) {
                return message(p, 2);
            }
        }
        throw new AssertionError("no " + name + " in field " + field);
    }

    private HttpResponse<String> get(String path, String ifNoneMatch) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path)).GET();
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static final class NoChecks implements io.kubelix.api.registry.RESTCreateStrategy,
            io.kubelix.api.registry.RESTUpdateStrategy {
        @Override
        public void prepareForCreate(io.kubelix.api.request.RequestContext ctx, com.fasterxml.jackson.databind.node.ObjectNode obj) {
        }

        @Override
        public void prepareForUpdate(io.kubelix.api.request.RequestContext ctx, com.fasterxml.jackson.databind.node.ObjectNode obj,
                                     com.fasterxml.jackson.databind.node.ObjectNode old) {
        }

        @Override
        public List<io.kubelix.api.errors.FieldError> validate(io.kubelix.api.request.RequestContext ctx,
                                                              com.fasterxml.jackson.databind.node.ObjectNode obj) {
            return List.of();
        }

        @Override
        public List<io.kubelix.api.errors.FieldError> validateUpdate(io.kubelix.api.request.RequestContext ctx,
                                                                    com.fasterxml.jackson.databind.node.ObjectNode obj,
                                                                    com.fasterxml.jackson.databind.node.ObjectNode old) {
            return List.of();
        }
    }
}
