package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.runtime.codec.protobuf.ProtobufCodec;
import com.google.gson.Gson;
import io.kubelix.api.schema.ResourceSchema;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Thousands of malformed and mutated requests against the in-process core API: random bytes,
 * truncated JSON, wrong types in metadata, huge strings, odd Content-Types and Accept headers,
 * bad query parameters; wrongly typed fields of built-in kinds (with their generated schemas);
 * YAML anchors, aliases, merge keys and expansion bombs; malformed percent-escapes and dot
 * segments, sent on a raw socket; negative watch timeouts. Whatever arrives: never a 5xx, every
 * error is a Status whose code is the HTTP status, a request that fails changes nothing, every
 * object stored decodes with the Kubernetes Java client's models, every YAML body is stored as a
 * reference YAML 1.1 parser reads it, and the server still answers.
 */
class MalformedRequestFuzzTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    private static final String KNOWN = CM + "/known";
    private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";

    private static InProcessAPIServer server;
    private static HttpClient client;

    record Req(String method, String path, String query, String contentType, String accept, byte[] body) {
        @Override
        public String toString() {
            return method + " " + path + query + " [" + contentType + "] accept=" + accept + " body="
                    + new String(body, 0, Math.min(body.length, 200), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        server = new InProcessAPIServer();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> r = send(new Req("POST", CM, "", "application/json", null,
                "{\"metadata\":{\"name\":\"known\",\"labels\":{\"a\":\"b\"}},\"data\":{\"k\":\"v\"}}".getBytes()));
        assertEquals(201, r.statusCode(), r.body());
        assertEquals(201, send(new Req("POST", WIDGETS, "", "application/json", null,
                "{\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":1}}".getBytes())).statusCode());
        long id = 10;
        for (BuiltIn k : BUILT_IN) {
            server.serve(k.group(), k.version(), k.resource(), k.kind(), k.schema(), id++);
        }
    }

    @AfterContainer
    static void stop() throws Exception {
        // The server still serves a plain list after everything it was sent.
        assertEquals(200, send(new Req("GET", CM, "", null, null, new byte[0])).statusCode());
        server.close();
    }

    @Property(tries = 3000)
    void noRequestBreaksTheServer(@ForAll("requests") Req req) throws Exception {
        String before = send(new Req("GET", KNOWN, "", null, null, new byte[0])).body();

        HttpResponse<String> r = send(req);

        assertTrue(r.statusCode() < 500, () -> r.statusCode() + " for " + req + ": " + r.body());
        if (r.statusCode() >= 400) {
            String type = r.headers().firstValue("Content-Type").orElse("");
            JsonNode status = type.equals(ProtobufCodec.MEDIA_TYPE)
                    ? new ProtobufCodec().decode(r.body().getBytes(StandardCharsets.ISO_8859_1))
                    : (type.contains("yaml") ? YAML : JSON).readTree(r.body());
            assertEquals("Status", status.path("kind").asText(), () -> req + ": " + r.body());
            assertEquals(r.statusCode(), status.path("code").asInt(), () -> req + ": " + r.body());
            assertEquals("Failure", status.path("status").asText(), () -> req + ": " + r.body());
            String after = send(new Req("GET", KNOWN, "", null, null, new byte[0])).body();
            // An object an earlier request began to delete (a foreground deletion, which the garbage
            // collector finishes on its own) may go meanwhile; any other change is the failed request's.
            if (!JSON.readTree(before).path("metadata").has("deletionTimestamp")) {
                assertEquals(before, after, () -> "a failed request changed the stored object: " + req);
            }
        }
    }

    /** Found by the property above: the create ran, then its Table answer was refused (400), and the object stayed. */
    @Example
    void aResponseFormThatCannotBeGivenIsRefusedBeforeTheWrite() throws Exception {
        byte[] body = "{\"metadata\":{\"name\":\"formless\"}}".getBytes();

        HttpResponse<String> table = send(new Req("POST", CM, "?includeObject=All", "application/json",
                "application/json;as=Table;g=meta.k8s.io;v=v1", body));
        HttpResponse<String> partialList = send(new Req("POST", CM, "", "application/json",
                "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", body));

        assertEquals(400, table.statusCode(), table.body());
        assertTrue(table.body().contains("includeObject: Unsupported value: \\\"All\\\""), table.body());
        assertEquals(406, partialList.statusCode(), partialList.body());
        assertEquals(404, send(new Req("GET", CM + "/formless", "", null, null, new byte[0])).statusCode(),
                "nothing was created");
    }

    /**
     * Every built-in kind whose schema the build generates (the resource bundles' lists), served
     * besides configmaps: the definitions with apiVersion, kind and metadata.
     */
    private static final com.fasterxml.jackson.databind.node.ObjectNode SCHEMAS = builtInSchemas();
    private static final List<BuiltIn> BUILT_IN = builtInKinds(SCHEMAS);

    /** The generated document's schemas, read once (it holds every built-in kind's). */
    private static com.fasterxml.jackson.databind.node.ObjectNode builtInSchemas() {
        try (java.io.InputStream in = MalformedRequestFuzzTest.class.getResourceAsStream("/openapi/builtin.json")) {
            return (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(in).path("components").path("schemas");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<BuiltIn> builtInKinds(JsonNode schemas) {
        List<BuiltIn> kinds = new java.util.ArrayList<>();
        java.util.Set<String> resources = new java.util.HashSet<>();
        schemas.fieldNames().forEachRemaining(definition -> {
            JsonNode properties = schemas.path(definition).path("properties");
            String[] parts = definition.split("\\.");
            if (!definition.startsWith("io.k8s.api.") || parts.length != 6 || !properties.has("apiVersion")
                    || !properties.has("kind") || !properties.has("metadata") || definition.equals("io.k8s.api.core.v1.ConfigMap")) {
                return;
            }
            String group = switch (parts[3]) {
                case "core" -> "";
                case "apps", "batch", "autoscaling", "policy" -> parts[3];
                default -> parts[3] + ".k8s.io";
            };
            String version = parts[4];
            String kind = parts[5];
            String plural = kind.toLowerCase(java.util.Locale.ROOT);
            plural = plural.endsWith("ss") ? plural + "es" : plural.endsWith("y") ? plural.replaceFirst("y$", "ies")
                    : plural.endsWith("s") ? plural : plural + "s";
            // Versions of one kind get resources of their own: the test serves them without conversion.
            String resource = resources.add(group + "/" + plural) ? plural : plural + version;
            resources.add(group + "/" + resource);
            kinds.add(new BuiltIn(group, version, resource, kind, definition, model(parts[3], version, kind)));
        });
        return List.copyOf(kinds);
    }

    /** client-java's model of a kind (V1Pod, V2HorizontalPodAutoscaler, CoreV1Event), or null when it has none. */
    private static Class<?> model(String group, String version, String kind) {
        String v = Character.toUpperCase(version.charAt(0)) + version.substring(1);
        for (String name : List.of(v + kind, Character.toUpperCase(group.charAt(0)) + group.substring(1) + v + kind)) {
            try {
                return Class.forName("io.kubernetes.client.openapi.models." + name);
            } catch (ClassNotFoundException e) {
                // the other naming, or none
            }
        }
        return null;
    }

    /**
     * Decodes as a typed client does: client-java's models with its adapters (dates, quantities,
     * int-or-strings, bytes), without the generated checks of required fields, which the permissive
     * test stores do not enforce as the real kinds' strategies do.
     */
    private static final Gson TYPED = io.kubernetes.client.openapi.JSON.createGson()
            .registerTypeAdapter(java.time.OffsetDateTime.class, new io.kubernetes.client.openapi.JSON.OffsetDateTimeTypeAdapter())
            .registerTypeAdapter(byte[].class, new io.kubernetes.client.openapi.JSON.ByteArrayAdapter())
            .create();
    private static final java.util.concurrent.atomic.AtomicInteger NAMES = new java.util.concurrent.atomic.AtomicInteger();

    record BuiltIn(String group, String version, String resource, String kind, String definition, Class<?> model) {
        ResourceSchema schema() {
            return ResourceSchema.of(SCHEMAS, definition);
        }

        String collection() {
            return (group.isEmpty() ? "/api/" : "/apis/" + group + "/") + version + "/namespaces/default/" + resource;
        }

        List<SchemaLeaves.Leaf> leaves() {
            return LEAVES.computeIfAbsent(definition, d -> SchemaLeaves.of(schema()));
        }
    }

    private static final Map<String, List<SchemaLeaves.Leaf>> LEAVES = new java.util.concurrent.ConcurrentHashMap<>();

    /** A field of a built-in kind given a value of another type: kube's 400, nothing stored. */
    @Property(tries = 1500)
    void wronglyTypedFieldsOfBuiltInKindsAreRefused(@ForAll("wronglyTyped") Typed t) throws Exception {
        HttpResponse<String> r = send(new Req("POST", t.kind().collection(), "", "application/json", null,
                t.body().getBytes()));

        assertEquals(400, r.statusCode(), () -> t + ": " + r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("BadRequest", status.path("reason").asText(), r.body());
        assertTrue(status.path("message").asText().startsWith(t.kind().kind() + " in version \"" + t.kind().version()
                + "\" cannot be handled as a "
                + t.kind().kind() + ": "), () -> t + ": " + r.body());
        JsonNode name = JSON.readTree(t.body()).path("metadata").path("name");
        if (name.isTextual()) {
            assertEquals(404, send(new Req("GET", t.kind().collection() + "/" + name.asText(), "", null, null,
                    new byte[0])).statusCode(), () -> "nothing stored for " + t);
        }
    }

    /** Well-typed fields of built-in kinds are stored, and what is stored decodes with the Java client's models. */
    @Property(tries = 500)
    void everyStoredObjectDecodesWithATypedClient(@ForAll("wellTyped") Typed t) throws Exception {
        HttpResponse<String> r = send(new Req("POST", t.kind().collection(), "", "application/json", null,
                t.body().getBytes()));

        assertTrue(r.statusCode() < 500, () -> t + ": " + r.body());
        if (r.statusCode() == 201 && t.kind().model() != null) {
            String name = JSON.readTree(r.body()).path("metadata").path("name").asText();
            String stored = send(new Req("GET", t.kind().collection() + "/" + name, "", null, null, new byte[0])).body();
            TYPED.fromJson(stored, t.kind().model());
            Class<?> list = listModel(t.kind().model());
            if (list != null) {
                TYPED.fromJson(send(new Req("GET", t.kind().collection(), "", null, null, new byte[0])).body(), list);
            }
        }
    }

    record Typed(BuiltIn kind, String path, String body) {
        @Override
        public String toString() {
            return kind.kind() + " " + path + ": " + body;
        }
    }

    @Provide
    Arbitrary<Typed> wronglyTyped() {
        return Arbitraries.of(BUILT_IN).flatMap(k -> Arbitraries.of(k.leaves()).flatMap(leaf ->
                Arbitraries.of(leaf.wrongValues()).map(v -> new Typed(k, leaf.toString(),
                        SchemaLeaves.body(List.of(leaf), List.of(v), "typed-" + NAMES.incrementAndGet())))));
    }

    @Provide
    Arbitrary<Typed> wellTyped() {
        return Arbitraries.of(BUILT_IN).flatMap(k -> Arbitraries.of(k.leaves()).list().ofMinSize(1).ofMaxSize(6)
                .map(leaves -> new Typed(k, leaves.toString(), SchemaLeaves.body(leaves,
                        leaves.stream().map(SchemaLeaves.Leaf::rightValue).toList(), "stored-" + NAMES.incrementAndGet()))));
    }

    /** The model of the kind's list, or null for a kind that is only created (Binding). */
    private static Class<?> listModel(Class<?> model) {
        try {
            return Class.forName(model.getName() + "List");
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /**
     * Malformed percent-escapes and dot segments, sent as they are on a socket (an HTTP client would
     * refuse or clean them): a 400 Status before anything reads them, and never routed elsewhere.
     */
    @Property(tries = 600)
    void uriAbuseIsABadRequest(@ForAll("rawMethods") String method, @ForAll("rawPaths") String path,
                               @ForAll("rawQueries") String query) throws Exception {
        String before = send(new Req("GET", KNOWN, "", null, null, new byte[0])).body();

        URIPolicyHTTPTest.Reply r = raw(server, method + " " + path + query + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + "Content-Length: 0\r\n\r\n");

        assertTrue(r.code() < 500, () -> method + " " + path + query + ": " + r.text());
        boolean dots = java.util.Arrays.stream(path.split("/")).anyMatch(seg -> seg.equals(".") || seg.equals(".."));
        boolean badEscape = query.matches(".*%(?![0-9a-fA-F]{2}).*") || query.matches("(?i).*%(ff|e2%28|c3%28).*");
        if (dots || badEscape) {
            assertEquals(400, r.code(), () -> method + " " + path + query + ": " + r.text());
        }
        if (r.code() >= 400) {
            JsonNode status = JSON.readTree(r.body());
            assertEquals("Status", status.path("kind").asText(), r.text());
            assertEquals(r.code(), status.path("code").asInt(), r.text());
            // A refused request changed nothing. One that is well formed after all (a plain DELETE of the
            // collection is a deletecollection) may act, as noRequestBreaksTheServer allows too.
            String after = send(new Req("GET", KNOWN, "", null, null, new byte[0])).body();
            if (!JSON.readTree(before).path("metadata").has("deletionTimestamp")) {
                assertEquals(before, after, () -> "changed by " + method + " " + path + query);
            }
        }
    }

    @Provide
    Arbitrary<String> rawMethods() {
        return Arbitraries.of("GET", "DELETE", "PUT", "PATCH", "POST");
    }

    @Provide
    Arbitrary<String> rawPaths() {
        return Arbitraries.of(CM, KNOWN, CM + "/..", CM + "/.", KNOWN + "/..", KNOWN + "/.", CM + "/../known",
                "/api/v1/namespaces/..", "/api/v1/namespaces/.", "/api/v1/namespaces/default/./configmaps",
                "/api/v1/namespaces/../configmaps", WIDGETS + "/w/..", WIDGETS + "/./w", "/apis/example.com/../v1",
                "/api/v1/..", "/healthz/..", CM + "/known/status/..");
    }

    @Provide
    Arbitrary<String> rawQueries() {
        return Arbitraries.of("", "?x=%", "?x=%z", "?x=%zz", "?labelSelector=%ff", "?labelSelector=a%", "?%=b",
                "?fieldSelector=%e2%28%a1", "?limit=%2", "?a=b&c=%c3%28", "?watch=1&timeoutSeconds=-3",
                "?labelSelector=a%3Db", "?x=%E2%9C%93");
    }

    private static URIPolicyHTTPTest.Reply raw(InProcessAPIServer s, String request) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", s.connector.getLocalPort())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            String text = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return new URIPolicyHTTPTest.Reply(Integer.parseInt(text.substring(9, 12)), text);
        }
    }

    /**
     * YAML bodies with anchors, aliases and merge keys: stored as a reference YAML 1.1 parser
     * (SnakeYAML) reads them, on scalars whose meaning YAML 1.1 and kube's go-yaml agree on.
     */
    @Property(tries = 300)
    void yamlBodiesAreStoredAsAYaml11ParserReadsThem(@ForAll("yamlScalars") List<String> v) throws Exception {
        String name = "yaml-" + NAMES.incrementAndGet();
        String doc = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\nspec:\n"
                + "  base: &b\n    k1: " + v.get(0) + "\n    k2: " + v.get(1) + "\n"
                + "  copy: *b\n"
                + "  merged:\n    <<: *b\n    k2: " + v.get(2) + "\n"
                + "  list: [&s " + v.get(3) + ", *s, " + v.get(4) + "]\n"
                + "  many:\n    <<: [*b, {k3: " + v.get(5) + "}]\n";

        HttpResponse<String> r = send(new Req("POST", WIDGETS, "", "application/yaml", null, doc.getBytes()));

        assertEquals(201, r.statusCode(), () -> doc + r.body());
        JsonNode reference = JSON.valueToTree(new org.yaml.snakeyaml.Yaml(new org.yaml.snakeyaml.constructor.SafeConstructor(
                new org.yaml.snakeyaml.LoaderOptions())).load(doc));
        JsonNode stored = JSON.readTree(send(new Req("GET", WIDGETS + "/" + name, "", null, null, new byte[0])).body());
        assertEquals(reference.get("spec"), stored.get("spec"), doc);
    }

    @Provide
    Arbitrary<List<String>> yamlScalars() {
        return Arbitraries.of("hello", "'quoted'", "\"double\"", "42", "-7", "0", "3.5", "-0.25", "true", "false",
                "yes", "no", "on", "off", "Off", "null", "~", "0x1F", "017", "1_000", "'yes'", "\"0x1F\"", "a b",
                "v1.2").list().ofSize(6);
    }

    /** Aliases nested to expand a small document into gigabytes: refused with a 400, never expanded or stored. */
    @Property(tries = 20)
    void yamlExpansionBombsAreRefused(@ForAll @net.jqwik.api.constraints.IntRange(min = 8, max = 12) int levels,
                                      @ForAll @net.jqwik.api.constraints.IntRange(min = 8, max = 12) int width)
            throws Exception {
        String name = "bomb-" + NAMES.incrementAndGet();
        StringBuilder doc = new StringBuilder("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name
                + "\nspec:\n  l0: &l0 [\"lol\"]\n");
        for (int i = 1; i <= levels; i++) {
            doc.append("  l").append(i).append(": &l").append(i).append(" [");
            for (int j = 0; j < width; j++) {
                doc.append(j == 0 ? "" : ", ").append("*l").append(i - 1);
            }
            doc.append("]\n");
        }

        HttpResponse<String> r = send(new Req("POST", WIDGETS, "", "application/yaml", null, doc.toString().getBytes()));

        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("excessive aliasing"), r.body());
        assertEquals(404, send(new Req("GET", WIDGETS + "/" + name, "", null, null, new byte[0])).statusCode());
    }

    @Provide
    Arbitrary<Req> requests() {
        Arbitrary<String> method = Arbitraries.of("GET", "POST", "PUT", "PATCH", "DELETE", "PROPFIND");
        Arbitrary<String> path = Arbitraries.of(CM, KNOWN, CM + "/missing", KNOWN + "/status", WIDGETS, WIDGETS + "/w",
                WIDGETS + "/w/status", "/api/v1/configmaps", "/api/v1/namespaces/default/nothings",
                CM + "/" + "n".repeat(300), CM + "/a%20b", "/apis/example.com/v9/widgets");
        // Not here: an encoded "/" (a%2Fb) or %00, which Jetty refuses with its own 400 page before any
        // handler runs (the server's StatusErrorHandler answers those with a Status); dot segments and
        // malformed escapes are sent on a raw socket by uriAbuseIsABadRequest.
        Arbitrary<String> query = Arbitraries.of("", "?limit=abc", "?limit=-1", "?labelSelector=!!%3D", "?labelSelector=a+in+(",
                "?fieldSelector=spec.nothing%3Dx", "?fieldSelector=metadata.name", "?resourceVersion=xyz",
                "?resourceVersion=1&resourceVersionMatch=Sometimes", "?continue=garbage", "?fieldValidation=Loose",
                "?fieldValidation=Strict", "?fieldValidation=Ignore", "?dryRun=Some", "?dryRun=All", "?includeObject=All",
                "?gracePeriodSeconds=soon", "?propagationPolicy=Sideways", "?orphanDependents=maybe", "?fieldManager="
                        + "m".repeat(200), "?timeoutSeconds=x", "?pretty=1&labelSelector=a%3D%3D%3Db",
                "?watch=true&timeoutSeconds=-1", "?watch=1&timeoutSeconds=-9223372036854775808",
                "?timeoutSeconds=99999999999999999999", "?timeoutSeconds=9223372036854775807");
        Arbitrary<String> contentType = Arbitraries.of("application/json", "application/yaml", "application/merge-patch+json",
                "application/json-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml",
                "application/vnd.kubernetes.protobuf", "text/plain", "application/json; charset=latin1", ";;;", "");
        Arbitrary<String> accept = Arbitraries.of(null, "application/json", "application/yaml", "application/xml", "*/*",
                "application/json;as=Table;g=meta.k8s.io;v=v1", "application/json;as=Table;g=meta.k8s.io;v=v9",
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
                "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1", "application/vnd.kubernetes.protobuf",
                "application/vnd.kubernetes.protobuf;q=0.5, application/json", "application/vnd.kubernetes.protobuf;stream=watch",
                ",,;q=x");
        return Combinators.combine(method, path, query, contentType, accept, bodies()).as(Req::new);
    }

    private Arbitrary<byte[]> bodies() {
        List<String> valid = List.of(
                "{\"metadata\":{\"name\":\"known\"},\"data\":{\"k\":\"v\"}}",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"f\",\"labels\":{\"a\":\"b\"}}}",
                "[{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"w\"}]",
                "{\"spec\":{\"size\":2},\"status\":{\"ready\":true}}",
                "{\"kind\":\"DeleteOptions\",\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"x\"}}");
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<byte[]> truncated = Combinators.combine(Arbitraries.of(valid), Arbitraries.integers().between(0, 60))
                .as((s, n) -> s.substring(0, Math.min(n, s.length())).getBytes());
        Arbitrary<byte[]> wrongTypes = Combinators.combine(
                Arbitraries.of("name", "namespace", "labels", "annotations", "finalizers", "resourceVersion", "uid",
                        "generateName", "ownerReferences", "deletionTimestamp", "deletionGracePeriodSeconds",
                        "creationTimestamp", "generation", "managedFields"),
                Arbitraries.of("5", "true", "null", "[]", "[1,{}]", "{}", "{\"a\":5}", "\"\"", "\"known\"", "-1",
                        "1e999", "\"x\"", "{\"a\":null}"),
                Arbitraries.of("", ",\"data\":5", ",\"data\":{\"k\":[1]}", ",\"binaryData\":{\"b\":\"!!\"}", ",\"kind\":5",
                        ",\"apiVersion\":\"v2\"", ",\"spec\":\"s\"", ",\"status\":[]"))
                .as((field, value, extra) -> ("{\"metadata\":{\"name\":\"known\",\"" + field + "\":" + value + "}" + extra
                        + "}").getBytes());
        Arbitrary<byte[]> huge = Arbitraries.integers().between(10_000, 600_000)
                .map(n -> ("{\"metadata\":{\"name\":\"" + "a".repeat(n) + "\"}}").getBytes());
        Arbitrary<byte[]> mutated = Combinators.combine(Arbitraries.of(valid), Arbitraries.integers().between(0, 59),
                        Arbitraries.chars().ascii())
                .as((s, i, c) -> {
                    char[] cs = s.toCharArray();
                    cs[Math.min(i, cs.length - 1)] = c;
                    return new String(cs).getBytes();
                });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, random),
                net.jqwik.api.Tuple.of(2, truncated),
                net.jqwik.api.Tuple.of(4, wrongTypes),
                net.jqwik.api.Tuple.of(1, huge),
                net.jqwik.api.Tuple.of(3, mutated),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(valid).map(String::getBytes)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new byte[0])));
    }

    private static HttpResponse<String> send(Req req) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.base + req.path() + req.query()))
                .timeout(Duration.ofSeconds(20))
                .method(req.method(), req.body().length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(req.body()));
        if (req.contentType() != null && !req.contentType().isEmpty()) {
            b.header("Content-Type", req.contentType());
        }
        if (req.accept() != null) {
            b.header("Accept", req.accept());
        }
        try {
            // A protobuf body is kept byte for byte, as ISO-8859-1 characters.
            HttpResponse<String> r = client.send(b.build(), info -> info.headers().firstValue("Content-Type")
                    .orElse("").equals(ProtobufCodec.MEDIA_TYPE)
                    ? HttpResponse.BodySubscribers.ofString(StandardCharsets.ISO_8859_1)
                    : HttpResponse.BodyHandlers.ofString().apply(info));
            LAST.set(req + " -> " + r.statusCode() + " " + r.headers().map());
            return r;
        } catch (java.io.IOException e) {
            throw new java.io.IOException(e.getMessage() + " sending " + req + "; previous: " + LAST.get(), e);
        }
    }

    private static final java.util.concurrent.atomic.AtomicReference<String> LAST = new java.util.concurrent.atomic.AtomicReference<>();
}
