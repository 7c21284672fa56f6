package io.kubelix.runtime.endpoints.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.endpoints.discovery.DiscoveryDocuments;


import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenAPI v3 documents ({@code /openapi/v3} and {@code /openapi/v3/<api|apis/group>/<version>}):
 * every path and operation of a group version, with its {@code x-kubernetes-action},
 * {@code x-kubernetes-group-version-kind}, query parameters and accepted patch types, generated
 * from the route table, and in {@code components.schemas} the OpenAPI schemas of the resources
 * that have one ({@link RESTStorage#schema()}), each kind's definition carrying its
 * {@code x-kubernetes-group-version-kind}. Clients use them to learn that the server validates
 * fields ({@code fieldValidation}), which patch types each kind accepts, and what its fields are
 * ({@code kubectl explain}). The patch operations do not list the strategic-merge type yet (the
 * server accepts it), so kubectl builds its apply patches from its compiled-in types, not from
 * these schemas.
 */
public final class OpenAPIV3 {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final String REF_PREFIX = "#/components/schemas/";
    private static final List<String> WRITE_PARAMS = List.of("dryRun", "fieldManager", "fieldValidation");
    private static final List<String> LIST_PARAMS = List.of("allowWatchBookmarks", "continue", "fieldSelector",
            "labelSelector", "limit", "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds",
            "watch");
    private static final List<String> PATCH_TYPES = List.of("application/apply-patch+yaml",
            "application/json-patch+json", "application/merge-patch+json");

    private OpenAPIV3() {
    }

    /** The document of one group version. */
    public static ObjectNode groupVersion(GroupVersion gv, Map<String, RESTStorage> resources, String serverVersion) {
        ObjectNode doc = document("openapi", "3.0.0", serverVersion);
        ObjectNode paths = doc.putObject("paths");
        resources.forEach((path, s) -> addPaths(paths, gv, path, s));
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        resources.forEach((path, s) -> addSchemas(schemas, gv, s.schema(), s.kind()));
        return doc;
    }

    /**
     * Adds a resource's definitions, its kind's marked with {@code x-kubernetes-group-version-kind}
     * (what {@code kubectl explain} looks kinds up by). A definition already there is kept: two
     * resources of a group version share the definitions they both refer to.
     */
    private static void addSchemas(ObjectNode schemas, GroupVersion gv, ResourceSchema schema, String kind) {
        if (schema == null) {
            return;
        }
        schema.definitions().forEach((name, def) -> {
            if (!schemas.has(name)) {
                schemas.set(name, def.deepCopy());
            }
        });
        ObjectNode root = (ObjectNode) schemas.get(schema.name());
        ArrayNode gvks = root.withArray("x-kubernetes-group-version-kind");
        for (var existing : gvks) {
            if (existing.path("kind").asText().equals(kind) && existing.path("group").asText().equals(gv.group())
                    && existing.path("version").asText().equals(gv.version())) {
                return;
            }
        }
        ObjectNode gvk = gvks.addObject();
        gvk.put("group", gv.group());
        gvk.put("kind", kind);
        gvk.put("version", gv.version());
    }

    /** The schema of a resource's objects: a reference to its kind's definition, or a free-form object. */
    private static ObjectNode objectSchema(RESTStorage s) {
        ObjectNode schema = F.objectNode();
        if (s.schema() == null) {
            return schema.put("type", "object");
        }
        return schema.put("$ref", REF_PREFIX + s.schema().name());
    }

    /** A document's header: its OpenAPI version field and kube's {@code info}. */
    static ObjectNode document(String versionField, String version, String serverVersion) {
        ObjectNode doc = F.objectNode();
        doc.put(versionField, version);
        ObjectNode info = doc.putObject("info");
        info.put("title", "Kubernetes");
        info.put("version", serverVersion);
        return doc;
    }

    /** The root discovery document: where each group version's document is, with its content hash. */
    public static ObjectNode root(Map<String, ObjectNode> documentsByPath) {
        ObjectNode root = F.objectNode();
        ObjectNode paths = root.putObject("paths");
        documentsByPath.forEach((p, d) -> paths.putObject(p).put("serverRelativeURL", "/openapi/v3/" + p + "?hash=" + hash(d)));
        return root;
    }

    /** {@code api/v1} or {@code apis/<group>/<version>}: the key of a group version's document. */
    public static String key(GroupVersion gv) {
        return gv.path().substring(1);
    }

    public static String hash(ObjectNode doc) {
        return hash(Codecs.toJson(doc));
    }

    /** {@link #hash(ObjectNode)} of a document already encoded as JSON. */
    public static String hash(byte[] json) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(json);
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void addPaths(ObjectNode paths, GroupVersion gv, String resourcePath, RESTStorage s) {
        String[] parts = resourcePath.split("/", 2);
        String resource = parts[0];
        String sub = parts.length > 1 ? "/" + parts[1] : "";
        String base = gv.path() + (s.namespaced() ? "/namespaces/{namespace}/" : "/") + resource;
        List<String> verbs = DiscoveryDocuments.verbs(s);
        Map<String, ObjectNode> collection = new LinkedHashMap<>();
        Map<String, ObjectNode> item = new LinkedHashMap<>();
        if (sub.isEmpty()) {
            if (verbs.contains("list")) {
                collection.put("get", operation(gv, s, "list", LIST_PARAMS));
            }
            if (verbs.contains("create")) {
                collection.put("post", operation(gv, s, "post", WRITE_PARAMS));
            }
            if (verbs.contains("deletecollection")) {
                collection.put("delete", operation(gv, s, "deletecollection", List.of("dryRun", "gracePeriodSeconds",
                        "labelSelector", "fieldSelector", "propagationPolicy")));
            }
        }
        if (!sub.isEmpty() && verbs.contains("create")) {
            // A POST-only subresource of a named object, such as pods/{name}/binding.
            item.put("post", operation(gv, s, "post", WRITE_PARAMS));
        }
        if (verbs.contains("get")) {
            item.put("get", operation(gv, s, "get", List.of("resourceVersion")));
        }
        if (verbs.contains("update")) {
            item.put("put", operation(gv, s, "put", WRITE_PARAMS));
            ObjectNode patch = operation(gv, s, "patch", List.of("dryRun", "fieldManager", "fieldValidation", "force"));
            ObjectNode content = patch.putObject("requestBody").putObject("content");
            PATCH_TYPES.forEach(t -> content.putObject(t).putObject("schema").put("type", "object"));
            item.put("patch", patch);
        }
        if (verbs.contains("delete")) {
            item.put("delete", operation(gv, s, "delete", List.of("dryRun", "gracePeriodSeconds", "propagationPolicy")));
        }
        if (!collection.isEmpty()) {
            ObjectNode p = paths.putObject(base);
            collection.forEach(p::set);
            pathParams(p, s.namespaced(), false);
        }
        if (!item.isEmpty()) {
            ObjectNode p = paths.putObject(base + "/{name}" + sub);
            item.forEach(p::set);
            pathParams(p, s.namespaced(), true);
        }
        if (sub.isEmpty() && s.namespaced() && verbs.contains("list")) {
            ObjectNode all = paths.putObject(gv.path() + "/" + resource);
            all.set("get", operation(gv, s, "list", LIST_PARAMS));
        }
    }

    private static ObjectNode operation(GroupVersion gv, RESTStorage s, String action, List<String> queryParams) {
        ObjectNode op = F.objectNode();
        op.put("operationId", action + s.kind());
        ArrayNode params = op.putArray("parameters");
        for (String q : queryParams) {
            ObjectNode p = params.addObject();
            p.put("name", q);
            p.put("in", "query");
            p.put("uniqueItems", true);
            p.putObject("schema").put("type", q.equals("limit") || q.equals("timeoutSeconds")
                    || q.equals("gracePeriodSeconds") ? "integer" : q.equals("watch") || q.equals("force")
                    || q.equals("allowWatchBookmarks") || q.equals("sendInitialEvents") ? "boolean" : "string");
        }
        if (action.equals("post") || action.equals("put")) {
            op.putObject("requestBody").putObject("content").putObject("*/*").set("schema", objectSchema(s));
        }
        ObjectNode ok = op.putObject("responses").putObject("200");
        ok.put("description", "OK");
        boolean objectResponse = List.of("get", "post", "put", "patch").contains(action);
        ok.putObject("content").putObject("application/json").set("schema",
                objectResponse ? objectSchema(s) : F.objectNode().put("type", "object"));
        op.put("x-kubernetes-action", action);
        ObjectNode gvk = op.putObject("x-kubernetes-group-version-kind");
        gvk.put("group", gv.group());
        gvk.put("kind", s.kind());
        gvk.put("version", gv.version());
        return op;
    }

    private static void pathParams(ObjectNode path, boolean namespaced, boolean named) {
        ArrayNode params = path.putArray("parameters");
        if (named) {
            ObjectNode n = params.addObject();
            n.put("name", "name");
            n.put("in", "path");
            n.put("required", true);
            n.putObject("schema").put("type", "string");
        }
        if (namespaced) {
            ObjectNode ns = params.addObject();
            ns.put("name", "namespace");
            ns.put("in", "path");
            ns.put("required", true);
            ns.putObject("schema").put("type", "string");
        }
    }

}
