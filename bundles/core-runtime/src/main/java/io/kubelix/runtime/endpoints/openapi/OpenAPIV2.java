package io.kubelix.runtime.endpoints.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/**
 * The OpenAPI v2 document ({@code /openapi/v2}, JSON): every group version's paths and
 * definitions in one Swagger 2.0 document, converted from the v3 documents of {@link OpenAPIV3}
 * as kube-apiserver publishes both forms: references read {@code #/definitions/<name>}, a v3
 * {@code allOf} around a single reference becomes the reference itself, request bodies become
 * {@code body} parameters and parameter schemas become their {@code type}.
 */
public final class OpenAPIV2 {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String V2_REF_PREFIX = "#/definitions/";

    private OpenAPIV2() {
    }

    /** The v2 document of the given v3 group-version documents. */
    public static ObjectNode of(Collection<ObjectNode> v3Documents, String serverVersion) {
        ObjectNode doc = OpenAPIV3.document("swagger", "2.0", serverVersion);
        ObjectNode paths = doc.putObject("paths");
        ObjectNode definitions = doc.putObject("definitions");
        for (ObjectNode v3 : v3Documents) {
            v3.path("paths").fields().forEachRemaining(p -> paths.set(p.getKey(), path((ObjectNode) p.getValue())));
            v3.path("components").path("schemas").fields().forEachRemaining(d -> {
                if (!definitions.has(d.getKey())) {
                    definitions.set(d.getKey(), schema(d.getValue()));
                }
            });
        }
        return doc;
    }

    private static ObjectNode path(ObjectNode v3) {
        ObjectNode out = F.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = v3.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals("parameters")) {
                out.set("parameters", parameters(e.getValue()));
            } else {
                out.set(e.getKey(), operation((ObjectNode) e.getValue()));
            }
        }
        return out;
    }

    private static ObjectNode operation(ObjectNode v3) {
        ObjectNode op = F.objectNode();
        ArrayNode consumes = F.arrayNode();
        op.put("operationId", v3.path("operationId").asText());
        ArrayNode params = parameters(v3.path("parameters"));
        JsonNode content = v3.path("requestBody").path("content");
        if (content.isObject() && !content.isEmpty()) {
            content.fieldNames().forEachRemaining(consumes::add);
            ObjectNode body = F.objectNode();
            body.put("name", "body");
            body.put("in", "body");
            body.put("required", true);
            body.set("schema", schema(content.elements().next().path("schema")));
            params.insert(0, body);
        }
        op.set("consumes", consumes.isEmpty() ? F.arrayNode().add("*/*") : consumes);
        op.set("produces", F.arrayNode().add("application/json").add("application/yaml"));
        op.set("parameters", params);
        ObjectNode responses = op.putObject("responses");
        v3.path("responses").fields().forEachRemaining(r -> {
            ObjectNode resp = responses.putObject(r.getKey());
            resp.put("description", r.getValue().path("description").asText());
            JsonNode s = r.getValue().path("content").path("application/json").path("schema");
            if (!s.isMissingNode()) {
                resp.set("schema", schema(s));
            }
        });
        v3.fields().forEachRemaining(e -> {
            if (e.getKey().startsWith("x-kubernetes-")) {
                op.set(e.getKey(), e.getValue().deepCopy());
            }
        });
        return op;
    }

    private static ArrayNode parameters(JsonNode v3) {
        ArrayNode out = F.arrayNode();
        v3.forEach(p -> {
            ObjectNode q = ((ObjectNode) p).deepCopy();
            JsonNode s = q.remove("schema");
            if (s != null) {
                q.setAll((ObjectNode) s);
            }
            out.add(q);
        });
        return out;
    }

    /** A v3 schema in v2's form: references into {@code #/definitions/}, single-reference allOf unwrapped. */
    static JsonNode schema(JsonNode v3) {
        if (v3.isArray()) {
            ArrayNode a = F.arrayNode();
            v3.forEach(n -> a.add(schema(n)));
            return a;
        }
        if (!v3.isObject()) {
            return v3.deepCopy();
        }
        ObjectNode out = F.objectNode();
        JsonNode allOf = v3.get("allOf");
        boolean unwrap = allOf != null && allOf.size() == 1 && allOf.get(0).has("$ref");
        if (unwrap) {
            out.set("$ref", ref(allOf.get(0).get("$ref")));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v3.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            if (unwrap && (key.equals("allOf") || key.equals("default"))) {
                continue;
            }
            switch (key) {
                case "$ref" -> out.set(key, ref(e.getValue()));
                case "properties" -> {
                    ObjectNode props = out.putObject(key);
                    e.getValue().fields().forEachRemaining(p -> props.set(p.getKey(), schema(p.getValue())));
                }
                case "items", "additionalProperties", "not", "allOf", "anyOf", "oneOf" -> out.set(key, schema(e.getValue()));
                // everything else (type, format, description, x-kubernetes-*...) is data, not a schema
                default -> out.set(key, e.getValue().deepCopy());
            }
        }
        return out;
    }

    private static JsonNode ref(JsonNode v3Ref) {
        return TextNode.valueOf(v3Ref.asText().replace(OpenAPIV3.REF_PREFIX, V2_REF_PREFIX));
    }
}
