package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Answers where kube-apiserver's exact wording and codes are what clients read: a dry-run create of
 * a name in use, PUT and PATCH on a collection, a PUT carrying another uid, invalid dryRun and
 * resourceVersionMatch options, the legacy watch path of one object, and YAML's plain scalars.
 */
class WireFidelityHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CM = "/api/v1/namespaces/default/configmaps";

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
    void aDryRunCreateOfANameInUseIsAlreadyExists() throws Exception {
        assertEquals(201, send("POST", CM, "{\"metadata\":{\"name\":\"a\"}}", null).statusCode());

        HttpResponse<String> dryRun = send("POST", CM + "?dryRun=All", "{\"metadata\":{\"name\":\"a\"}}", null);

        ResourceHTTPTest.assertStatus(dryRun, 409, "AlreadyExists");
        assertEquals("configmaps \"a\" already exists", JSON.readTree(dryRun.body()).path("message").asText());
        assertEquals(201, send("POST", CM + "?dryRun=All", "{\"metadata\":{\"name\":\"b\"}}", null).statusCode());
        assertEquals(404, send("GET", CM + "/b", null, null).statusCode(), "a dry run stores nothing");
    }

    @Test
    void putAndPatchOnACollectionAreMethodNotAllowed() throws Exception {
        for (String method : new String[]{"PUT", "PATCH"}) {
            HttpResponse<String> r = send(method, CM, "{\"metadata\":{\"name\":\"a\"}}",
                    method.equals("PATCH") ? "application/merge-patch+json" : null);
            assertEquals(405, r.statusCode(), r.body());
            assertEquals(JSON.readTree("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"the server does not allow this method on the requested resource\","
                    + "\"reason\":\"MethodNotAllowed\",\"details\":{},\"code\":405}"), JSON.readTree(r.body()));
        }
    }

    @Test
    void aPutCarryingAnotherUidIsAConflict() throws Exception {
        JsonNode created = JSON.readTree(send("POST", CM, "{\"metadata\":{\"name\":\"a\"}}", null).body());
        String uid = created.path("metadata").path("uid").asText();

        HttpResponse<String> put = send("PUT", CM + "/a", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"a\",\"uid\":\"another\"},\"data\":{\"k\":\"v\"}}", null);

        ResourceHTTPTest.assertStatus(put, 409, "Conflict");
        assertEquals("Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid object, Code: 4, Key: "
                + "/registry/configmaps/default/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in "
                + "precondition: another, UID in object meta: " + uid, JSON.readTree(put.body()).path("message").asText());
        HttpResponse<String> same = send("PUT", CM + "/a", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"a\",\"uid\":\"" + uid + "\"},\"data\":{\"k\":\"v\"}}", null);
        assertEquals(200, same.statusCode(), same.body());
    }

    @Test
    void invalidDryRunAndResourceVersionMatchAreInvalidOptions() throws Exception {
        HttpResponse<String> create = send("POST", CM + "?dryRun=Bogus", "{\"metadata\":{\"name\":\"a\"}}", null);
        ResourceHTTPTest.assertStatus(create, 422, "Invalid");
        assertEquals("CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Bogus\"}: "
                + "supported values: \"All\"", JSON.readTree(create.body()).path("message").asText());
        assertEquals(404, send("GET", CM + "/a", null, null).statusCode(), "refused before it acts");

        send("POST", CM, "{\"metadata\":{\"name\":\"a\"}}", null);
        HttpResponse<String> delete = send("DELETE", CM + "/a?dryRun=All&dryRun=x", null, null);
        ResourceHTTPTest.assertStatus(delete, 422, "Invalid");
        assertEquals("DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"All\", \"x\"}: "
                + "supported values: \"All\"", JSON.readTree(delete.body()).path("message").asText());

        HttpResponse<String> list = send("GET", CM + "?resourceVersionMatch=NotOlderThan", null, null);
        ResourceHTTPTest.assertStatus(list, 422, "Invalid");
        assertEquals("ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "
                + "is forbidden unless resourceVersion is provided", JSON.readTree(list.body()).path("message").asText());
        JsonNode cause = JSON.readTree(list.body()).path("details").path("causes").get(0);
        assertEquals("FieldValueForbidden", cause.path("reason").asText());
        assertEquals("resourceVersionMatch", cause.path("field").asText());
    }

    @Test
    void theLegacyWatchPathOfOneObjectStreamsOnlyThatObject() throws Exception {
        HttpResponse<Stream<String>> watch = client.send(HttpRequest.newBuilder(
                server.base.resolve("/api/v1/watch/namespaces/default/configmaps/a?timeoutSeconds=5")).build(),
                HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, watch.statusCode());

        send("POST", CM, "{\"metadata\":{\"name\":\"b\"}}", null);
        send("POST", CM, "{\"metadata\":{\"name\":\"a\"}}", null);
        send("DELETE", CM + "/b", null, null);
        send("DELETE", CM + "/a", null, null);

        try (Stream<String> lines = watch.body()) {
            Iterator<String> it = lines.iterator();
            JsonNode added = JSON.readTree(it.next());
            assertEquals("ADDED", added.path("type").asText());
            assertEquals("a", added.path("object").path("metadata").path("name").asText());
            JsonNode deleted = JSON.readTree(it.next());
            assertEquals("DELETED", deleted.path("type").asText());
            assertEquals("a", deleted.path("object").path("metadata").path("name").asText());
        }

        HttpResponse<String> other = send("GET", "/api/v1/watch/namespaces/default/configmaps/a?fieldSelector="
                + "metadata.name%3Db", null, null);
        ResourceHTTPTest.assertStatus(other, 400, "BadRequest");
        assertEquals("fieldSelector metadata.name doesn't match requested name",
                JSON.readTree(other.body()).path("message").asText());
    }

    @Test
    void yamlWritesPlainScalarsAndQuotesWhatWouldReadAsAnotherType() throws Exception {
        send("POST", CM, "{\"metadata\":{\"name\":\"a\"},\"data\":{\"plain\":\"hello world\",\"number\":\"1\","
                + "\"flag\":\"true\",\"date\":\"2024-05-01\"}}", null);

        HttpResponse<String> yaml = client.send(HttpRequest.newBuilder(server.base.resolve(CM + "/a"))
                .header("Accept", "application/yaml").build(), HttpResponse.BodyHandlers.ofString());

        String body = yaml.body();
        assertTrue(body.startsWith("apiVersion: v1\n") || body.contains("\napiVersion: v1\n"), body);
        assertTrue(body.contains("\nkind: ConfigMap\n") || body.startsWith("kind: ConfigMap\n"), body);
        assertTrue(body.contains("  name: a\n"), body);
        assertTrue(body.contains("  plain: hello world\n"), body);
        assertTrue(body.contains("  number: \"1\"\n"), body);
        assertTrue(body.contains("  flag: \"true\"\n"), body);
        assertTrue(body.contains("  date: \"2024-05-01\"\n"), body);
        assertTrue(body.matches("(?s).*\n  creationTimestamp: \"\\d{4}-\\d\\d-\\d\\dT[^\"]+Z\"\n.*"), body);
    }

    private HttpResponse<String> send(String method, String path, String body, String contentType) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base.resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", contentType == null ? "application/json" : contentType);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
