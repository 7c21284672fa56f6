package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;

import java.util.ArrayList;
import java.util.List;

/**
 * The typed fields of a kind, read from its OpenAPI schema down to a few levels, each with values
 * of its type and of other types, for building bodies that a typed decoder must accept or refuse.
 */
final class SchemaLeaves {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_DEPTH = 6;

    enum Type { INT32, INT64, NUMBER, BOOLEAN, STRING, BYTES, QUANTITY, INT_OR_STRING, TIME, ARRAY, OBJECT }

    /** A field: the names leading to it ({@code []} for a list's item, {@code k} for a map's value). */
    record Leaf(List<String> path, Type type) {
        List<String> wrongValues() {
            return switch (type) {
                case INT32 -> List.of("\"abc\"", "1.5", "1e400", "2147483648", "-2147483649", "true", "[]", "{}");
                case INT64 -> List.of("\"abc\"", "1.5", "1e400", "9223372036854775808", "false", "[1]");
                case NUMBER -> List.of("\"x\"", "true", "{}");
                case BOOLEAN -> List.of("\"yes\"", "1", "\"true\"", "[]");
                case STRING, BYTES -> List.of("5", "true", "{}", "[\"a\"]", "1.5");
                case QUANTITY -> List.of("\"lots\"", "true", "\"1Zi\"", "{}", "[]");
                case INT_OR_STRING -> List.of("1.5", "true", "{}", "[]", "2147483648");
                case TIME -> List.of("\"yesterday\"", "5", "\"2026-13-45T00:00:00Z\"", "true");
                case ARRAY -> List.of("{}", "\"s\"", "5");
                case OBJECT -> List.of("\"s\"", "5", "[]", "true");
            };
        }

        String rightValue() {
            return switch (type) {
                case INT32 -> "7";
                case INT64 -> "30";
                case NUMBER -> "1.5";
                case BOOLEAN -> "true";
                case STRING -> "\"s\"";
                case BYTES -> "\"aGk=\"";
                case QUANTITY -> "\"500m\"";
                case INT_OR_STRING -> path.hashCode() % 2 == 0 ? "8080" : "\"http\"";
                case TIME -> "\"2026-01-01T00:00:00Z\"";
                case ARRAY -> "[]";
                case OBJECT -> "{}";
            };
        }

        @Override
        public String toString() {
            return String.join(".", path) + " (" + type + ")";
        }
    }

    private SchemaLeaves() {
    }

    static List<Leaf> of(ResourceSchema schema) {
        List<Leaf> out = new ArrayList<>();
        walk(schema, schema.root(), new ArrayList<>(), out);
        return out;
    }

    private static void walk(ResourceSchema schema, JsonNode s, List<String> path, List<Leaf> out) {
        if (path.size() > MAX_DEPTH || s == null) {
            return;
        }
        JsonNode def = schema.resolve(s) != null ? schema.resolve(s) : s;
        String ref = refName(s);
        if (ref.endsWith("resource.Quantity")) {
            out.add(new Leaf(List.copyOf(path), Type.QUANTITY));
            return;
        }
        if (ref.endsWith("intstr.IntOrString")) {
            out.add(new Leaf(List.copyOf(path), Type.INT_OR_STRING));
            return;
        }
        String format = def.path("format").asText("");
        if (format.equals("date-time")) {
            out.add(new Leaf(List.copyOf(path), Type.TIME));
            return;
        }
        switch (def.path("type").asText("")) {
            case "integer" -> out.add(new Leaf(List.copyOf(path), format.equals("int32") ? Type.INT32 : Type.INT64));
            case "number" -> out.add(new Leaf(List.copyOf(path), Type.NUMBER));
            case "boolean" -> out.add(new Leaf(List.copyOf(path), Type.BOOLEAN));
            case "string" -> out.add(new Leaf(List.copyOf(path), format.equals("byte") ? Type.BYTES : Type.STRING));
            case "array" -> {
                out.add(new Leaf(List.copyOf(path), Type.ARRAY));
                path.add("[]");
                walk(schema, def.get("items"), path, out);
                path.remove(path.size() - 1);
            }
            case "object" -> {
                JsonNode properties = def.get("properties");
                JsonNode additional = def.get("additionalProperties");
                if (properties == null && !(additional instanceof ObjectNode)) {
                    return;
                }
                if (!path.isEmpty()) {
                    out.add(new Leaf(List.copyOf(path), Type.OBJECT));
                }
                if (properties != null) {
                    properties.fields().forEachRemaining(p -> {
                        path.add(p.getKey());
                        walk(schema, p.getValue(), path, out);
                        path.remove(path.size() - 1);
                    });
                } else {
                    path.add("k");
                    walk(schema, additional, path, out);
                    path.remove(path.size() - 1);
                }
            }
            default -> {
            }
        }
    }

    private static String refName(JsonNode s) {
        JsonNode ref = s.get("$ref");
        if (ref == null && s.path("allOf").size() == 1) {
            ref = s.path("allOf").get(0).get("$ref");
        }
        return ref == null ? "" : ref.asText();
    }

    /**
     * An object with each leaf set to its value (the first to claim a place wins), named {@code name}
     * in namespace {@code default}, as JSON.
     */
    static String body(List<Leaf> leaves, List<String> values, String name) {
        try {
            ObjectNode root = JSON.createObjectNode();
            for (int i = 0; i < leaves.size(); i++) {
                set(root, leaves.get(i).path(), 0, JSON.readTree(values.get(i)));
            }
            JsonNode metadata = root.get("metadata");
            if (metadata == null || metadata instanceof ObjectNode) {
                ObjectNode m = metadata == null ? root.putObject("metadata") : (ObjectNode) metadata;
                if (!m.has("name") || m.get("name").isTextual()) {
                    m.put("name", name);
                }
                if (m.has("namespace") && m.get("namespace").isTextual()) {
                    m.put("namespace", "default");
                }
            }
            return JSON.writeValueAsString(root);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void set(JsonNode at, List<String> path, int i, JsonNode value) {
        String segment = path.get(i);
        boolean last = i == path.size() - 1;
        if (segment.equals("[]")) {
            if (!(at instanceof ArrayNode a)) {
                return;
            }
            if (last) {
                a.add(value);
                return;
            }
            if (a.isEmpty()) {
                a.add(path.get(i + 1).equals("[]") ? JSON.createArrayNode() : JSON.createObjectNode());
            }
            set(a.get(0), path, i + 1, value);
            return;
        }
        if (!(at instanceof ObjectNode o)) {
            return;
        }
        if (last) {
            if (!o.has(segment)) {
                o.set(segment, value);
            }
            return;
        }
        if (!o.has(segment)) {
            o.set(segment, path.get(i + 1).equals("[]") ? JSON.createArrayNode() : JSON.createObjectNode());
        }
        set(o.get(segment), path, i + 1, value);
    }
}
