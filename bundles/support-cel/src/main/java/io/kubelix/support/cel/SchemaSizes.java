package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The sizes of the values an OpenAPI schema allows, as kube derives them for the static cost of
 * validation rules (the {@code MaxElements} and {@code MinSerializedSize} of apiserver's
 * {@code SchemaDeclType}): a string's {@code maxLength} (times four, as kube counts bytes), else the
 * length of its longest {@code enum} value, else what fits in a request of 3 MiB; an array's
 * {@code maxItems} and a map's {@code maxProperties}, else as many of the smallest items as fit in
 * such a request. This is why kube tells users to set those limits: an unbounded list of strings
 * multiplies about a million items by about three million characters. Paths start with the
 * variable ({@code self}) and go on as {@link SizeEstimator} says.
 */
public final class SchemaSizes implements SizeEstimator {
    /** kube's limit on a request's body, which bounds what no schema limit does. */
    public static final long MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
    private static final ObjectNode PLAIN_STRING = JsonNodeFactory.instance.objectNode().put("type", "string");
    /** A map's keys, which kube declares without a length (so comparing them costs nothing). */
    private static final ObjectNode KEY = JsonNodeFactory.instance.objectNode().put("type", "string").put("maxLength", 0);
    private static final ObjectNode META = JsonNodeFactory.instance.objectNode().put("type", "object");

    static {
        META.putObject("properties").set("name", PLAIN_STRING);
        ((ObjectNode) META.get("properties")).set("generateName", PLAIN_STRING);
    }

    private final JsonNode schema;
    private final boolean resourceRoot;

    /**
     * @param schema       the schema of the variables' values
     * @param resourceRoot the schema is of a whole resource (it has {@code apiVersion}, {@code kind}
     *                     and {@code metadata.name} even when it does not declare them)
     */
    public SchemaSizes(JsonNode schema, boolean resourceRoot) {
        this.schema = schema;
        this.resourceRoot = resourceRoot;
    }

    @Override
    public SizeEstimate estimateSize(List<String> path) {
        JsonNode s = schema;
        boolean root = resourceRoot || embedded(s);
        if (!declared(s)) {
            return null;
        }
        for (String element : path.subList(1, path.size())) {
            switch (element) {
                case "@items" -> s = "array".equals(type(s)) ? s.get("items") : null;
                case "@values" -> s = isMap(s) ? s.get("additionalProperties") : null;
                case "@keys" -> s = isMap(s) ? KEY : null;
                default -> s = field(s, root, element);
            }
            if (s == null || !declared(s)) {
                return null;
            }
            root = embedded(s);
        }
        return new SizeEstimate(0, maxElements(s));
    }

    /**
     * How many times a value of {@code schema} could occur in one request, when a list or map around
     * it has no limit (kube's maxCardinality): as many of its smallest serializations as fit, each
     * with a comma.
     */
    public static long maxCardinality(JsonNode schema, boolean resourceRoot) {
        return MAX_REQUEST_SIZE_BYTES / (minSerializedSize(schema, resourceRoot || embedded(schema)) + 1);
    }

    private static long maxElements(JsonNode s) {
        if (intOrString(s)) {
            return s.has("maxLength") ? Math.max(0, s.get("maxLength").asLong()) * 4 : MAX_REQUEST_SIZE_BYTES - 2;
        }
        switch (type(s)) {
            case "array":
                return s.has("maxItems") ? Math.max(0, s.get("maxItems").asLong())
                        : (MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(s.get("items"), embedded(s.get("items"))) + 1);
            case "object":
                if (!isMap(s)) {
                    return 0;
                }
                JsonNode values = s.get("additionalProperties");
                // a key with its quotes, the colon, a comma and the smallest value
                return s.has("maxProperties") ? Math.max(0, s.get("maxProperties").asLong())
                        : (MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(values, embedded(values)) + 6);
            case "string":
                switch (s.path("format").asText("")) {
                    case "byte":
                        return s.has("maxLength") ? Math.max(0, s.get("maxLength").asLong()) : MAX_REQUEST_SIZE_BYTES - 2;
                    case "duration", "date-time":
                        return 32;
                    case "date":
                        return 12;
                    default:
                        if (s.has("maxLength")) {
                            return Math.max(0, s.get("maxLength").asLong()) * 4;
                        }
                        if (!s.path("enum").isEmpty()) {
                            long longest = 0;
                            for (JsonNode v : s.get("enum")) {
                                if (v.isTextual()) {
                                    longest = Math.max(longest, v.asText().getBytes(StandardCharsets.UTF_8).length);
                                }
                            }
                            return longest;
                        }
                        return MAX_REQUEST_SIZE_BYTES - 2;
                }
            default:
                return 0;
        }
    }

    /** The length of the shortest JSON a value of the schema can have. */
    private static long minSerializedSize(JsonNode s, boolean root) {
        if (intOrString(s)) {
            return 1;
        }
        switch (type(s)) {
            case "boolean":
                return 4;
            case "integer", "number":
                return 1;
            case "string":
                return switch (s.path("format").asText("")) {
                    case "duration" -> 3;
                    case "date" -> 12;
                    case "date-time" -> 21;
                    default -> 2;
                };
            case "object": {
                if (isMap(s)) {
                    return 2;
                }
                long size = 2;
                for (JsonNode required : s.path("required")) {
                    String name = required.asText();
                    JsonNode p = field(s, root, name, name);
                    // a defaulted field is filled in by the server
                    if (p != null && declared(p) && !p.has("default")) {
                        size += name.getBytes(StandardCharsets.UTF_8).length + minSerializedSize(p, embedded(p)) + 4;
                    }
                }
                return size;
            }
            default:
                return 2;
        }
    }

    /** The property whose CEL name is {@code name}, with the type and object meta of a resource root. */
    private static JsonNode field(JsonNode s, boolean root, String name) {
        return field(s, root, name, null);
    }

    private static JsonNode field(JsonNode s, boolean root, String celName, String property) {
        if (!"object".equals(type(s)) || isMap(s)) {
            return null;
        }
        if (root && !declaresTypeAndObjectMeta(s)) {
            String meta = property != null ? property : celName;
            if (meta.equals("kind") || meta.equals("apiVersion")) {
                return PLAIN_STRING;
            }
            if (meta.equals("metadata")) {
                return META;
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = s.path("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            if (property != null ? p.getKey().equals(property) : CelNames.escape(p.getKey()).filter(celName::equals).isPresent()) {
                return p.getValue();
            }
        }
        return null;
    }

    /** Whether kube gives the schema a CEL type (SchemaDeclType is not nil). */
    private static boolean declared(JsonNode s) {
        if (s == null || !s.isObject()) {
            return false;
        }
        if (intOrString(s)) {
            return true;
        }
        return switch (type(s)) {
            case "array" -> declared(s.get("items"));
            case "object" -> !isMap(s) || declared(s.get("additionalProperties"));
            case "string", "boolean", "integer", "number" -> true;
            default -> false;
        };
    }

    private static boolean isMap(JsonNode s) {
        return "object".equals(type(s)) && s.path("additionalProperties").isObject();
    }

    private static boolean intOrString(JsonNode s) {
        return s.path("x-kubernetes-int-or-string").asBoolean(false);
    }

    private static boolean embedded(JsonNode s) {
        return s != null && s.path("x-kubernetes-embedded-resource").asBoolean(false);
    }

    private static String type(JsonNode s) {
        return s == null ? "" : s.path("type").asText("");
    }

    private static boolean declaresTypeAndObjectMeta(JsonNode s) {
        JsonNode p = s.path("properties");
        JsonNode meta = p.path("metadata");
        return "string".equals(type(p.get("kind"))) && "string".equals(type(p.get("apiVersion")))
                && "object".equals(type(meta)) && "string".equals(type(meta.path("properties").get("name")))
                && "string".equals(type(meta.path("properties").get("generateName")));
    }
}
