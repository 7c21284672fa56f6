package io.kubelix.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OpenAPI v3 schema of a resource's objects: the definition of its kind and every definition
 * that one refers to, as kube-apiserver publishes them in {@code components.schemas}. References
 * read {@code "$ref": "#/components/schemas/<name>"}; the {@code x-kubernetes-*} extensions
 * ({@code x-kubernetes-list-type}, {@code -list-map-keys}, {@code -map-type},
 * {@code -patch-merge-key}, {@code -patch-strategy}, {@code -preserve-unknown-fields}) mean what
 * they mean in kube's published documents.
 *
 * <p>The server publishes these schemas in {@code /openapi/v2} and {@code /openapi/v3} (adding
 * {@code x-kubernetes-group-version-kind} to the kind's definition), and uses them to find
 * unknown fields in create, update and patch bodies ({@code fieldValidation}): a field that no
 * {@code properties} names is unknown unless the object has {@code additionalProperties} or
 * {@code x-kubernetes-preserve-unknown-fields: true}.
 *
 * <p>A resource bundle ships its schemas as a resource and loads them with
 * {@link #load(InputStream, String)}, then hands them to its store with
 * {@code StoreSpec.builder(...).schema(...)}. A plugin's own kinds have hand-written schemas (see
 * the widget example). Built-in kinds' schemas are never written by hand: a bundle of this
 * repository generates them while it builds by declaring {@code exec-maven-plugin} with the
 * parent POM's {@code openapi-schemas} execution, whose arguments are the output file and the kube
 * definition names it needs:
 * <pre>{@code
 * <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId>
 *   <executions><execution><id>openapi-schemas</id><configuration><arguments>
 *     <argument>${project.build.outputDirectory}/openapi/schemas.json</argument>
 *     <argument>io.k8s.api.apps.v1.Deployment</argument>
 *   </arguments></configuration></execution></executions>
 * </plugin>
 * }</pre>
 * The nodes are shared: treat them as read-only.
 *
 * @param name        the definition name of the kind, such as {@code io.k8s.api.core.v1.ConfigMap}
 *                    (kube's names; a plugin's own types use their own reverse-domain names)
 * @param definitions the definitions by name, {@code name} included, each an OpenAPI v3 schema object
 */
public record ResourceSchema(String name, Map<String, ObjectNode> definitions) {
    private static final String REF_PREFIX = "#/components/schemas/";
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The {@code components.schemas} of each bundle's schema documents, read once: a group loads
     * its kinds one at a time from the same document, and reading it again for each kind was a
     * tenth of a server's start. Weak on the owner class, so the document of a plugin revision
     * that was updated or removed goes with its class loader.
     */
    private static final Map<Class<?>, Map<String, ObjectNode>> DOCUMENTS =
            Collections.synchronizedMap(new WeakHashMap<>());

    public ResourceSchema {
        Objects.requireNonNull(name, "name");
        if (!definitions.containsKey(name)) {
            throw new IllegalArgumentException("no definition named " + name);
        }
        definitions = Collections.unmodifiableMap(new LinkedHashMap<>(definitions));
    }

    /** The definition of the kind itself. */
    public ObjectNode root() {
        return definitions.get(name);
    }

    /**
     * The definition a schema's {@code $ref} (or single-element {@code allOf} wrapping one) names,
     * or null when the schema refers to nothing or to a definition that is not here.
     */
    public ObjectNode resolve(JsonNode schema) {
        String ref = ref(schema);
        return ref == null ? null : definitions.get(ref);
    }

    /**
     * Reads an OpenAPI v3 document, or a fragment of one holding {@code components.schemas}, and
     * keeps the definition {@code name} with every definition it refers to, directly or not.
     *
     * @throws IOException              when the stream cannot be read or is not JSON
     * @throws IllegalArgumentException when there is no definition {@code name}, or one it refers to is missing
     */
    public static ResourceSchema load(InputStream json, String name) throws IOException {
        return of(schemas(json), name);
    }

    private static ObjectNode schemas(InputStream json) throws IOException {
        JsonNode doc = JSON.readTree(json);
        JsonNode schemas = doc == null ? null : doc.path("components").path("schemas");
        if (schemas == null || !schemas.isObject()) {
            throw new IllegalArgumentException("not an OpenAPI v3 document with components.schemas");
        }
        return (ObjectNode) schemas;
    }

    /**
     * Reads the definition {@code name} from the OpenAPI document {@code resource} packed with
     * {@code owner}'s bundle (such as the {@code /openapi/schemas.json} the build generates).
     *
     * @throws IllegalStateException when the resource is missing or cannot be read
     */
    public static ResourceSchema load(Class<?> owner, String resource, String name) {
        ObjectNode schemas = DOCUMENTS.computeIfAbsent(owner, o -> new ConcurrentHashMap<>())
                .computeIfAbsent(resource, r -> read(owner, r));
        // Each schema gets its own copies of the definitions it needs, as a document read for it alone gave.
        Map<String, ObjectNode> copies = new LinkedHashMap<>();
        of(schemas, name).definitions().forEach((n, def) -> copies.put(n, def.deepCopy()));
        return new ResourceSchema(name, copies);
    }

    private static ObjectNode read(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the bundle of " + owner.getName());
            }
            return schemas(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + ": " + e.getMessage(), e);
        }
    }

    /** The definition {@code name} of {@code schemas} (a {@code components.schemas} object) with what it refers to. */
    public static ResourceSchema of(ObjectNode schemas, String name) {
        Map<String, ObjectNode> needed = new LinkedHashMap<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add(name);
        while (!todo.isEmpty()) {
            String n = todo.poll();
            if (needed.containsKey(n)) {
                continue;
            }
            JsonNode def = schemas.get(n);
            if (!(def instanceof ObjectNode o)) {
                throw new IllegalArgumentException("no definition named " + n);
            }
            needed.put(n, o);
            collectRefs(o, todo);
        }
        return new ResourceSchema(name, needed);
    }

    private static void collectRefs(JsonNode node, Deque<String> into) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith(REF_PREFIX)) {
                into.add(ref.asText().substring(REF_PREFIX.length()));
            }
        }
        if (node.isContainerNode()) {
            node.forEach(child -> collectRefs(child, into));
        }
    }

    /** The definition name a schema refers to, through {@code $ref} or an {@code allOf} of one {@code $ref}. */
    private static String ref(JsonNode schema) {
        if (schema == null) {
            return null;
        }
        JsonNode ref = schema.get("$ref");
        if (ref == null && schema.path("allOf").size() == 1) {
            ref = schema.path("allOf").get(0).get("$ref");
        }
        return ref != null && ref.isTextual() && ref.asText().startsWith(REF_PREFIX)
                ? ref.asText().substring(REF_PREFIX.length()) : null;
    }
}
