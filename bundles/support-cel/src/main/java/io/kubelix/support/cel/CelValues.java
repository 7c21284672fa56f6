package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cel.common.values.NullValue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as CEL sees it, as kube's unstructured values are: objects are maps from strings, arrays
 * lists, integers {@code int} ({@link Long}), other numbers {@code double}, strings, booleans, and
 * {@code null}. Results come back the same way (maps, lists, {@link Long}, {@link Double},
 * {@link String}, {@link Boolean}, or null).
 */
public final class CelValues {
    private CelValues() {
    }

    /** The CEL value of a JSON node. */
    public static Object fromJson(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                m.put(f.getKey(), fromJson(f.getValue()));
            }
            return m;
        }
        if (node.isArray()) {
            List<Object> l = new ArrayList<>(node.size());
            node.forEach(n -> l.add(fromJson(n)));
            return l;
        }
        if (node.isIntegralNumber()) {
            return node.asLong();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.asText();
    }

    /**
     * The CEL value of a JSON node of an OpenAPI schema: as {@link #fromJson(JsonNode)}, but the
     * properties the schema declares are named as {@link CelNames} escapes them, so a rule checked
     * against the schema's types ({@code self.foo__dash__bar}) finds them at run time.
     */
    public static Object fromJson(JsonNode node, JsonNode schema) {
        if (schema == null || !schema.isObject() || node == null) {
            return fromJson(node);
        }
        if (node.isObject()) {
            JsonNode properties = schema.path("properties");
            JsonNode additional = schema.path("additionalProperties");
            Map<String, Object> m = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode declared = properties.get(f.getKey());
                if (declared != null) {
                    m.put(CelNames.escape(f.getKey()).orElse(f.getKey()), fromJson(f.getValue(), declared));
                } else {
                    m.put(f.getKey(), fromJson(f.getValue(), additional.isObject() ? additional : null));
                }
            }
            return m;
        }
        if (node.isArray()) {
            List<Object> l = new ArrayList<>(node.size());
            node.forEach(n -> l.add(fromJson(n, schema.get("items"))));
            return l;
        }
        return fromJson(node);
    }

    /** A binding as CEL takes it: JSON nodes are converted, Java values (already CEL's) pass. */
    static Object fromJava(Object v) {
        if (v instanceof JsonNode n) {
            return fromJson(n);
        }
        if (v == null) {
            return NullValue.NULL_VALUE;
        }
        if (v instanceof Integer i) {
            return i.longValue();
        }
        return v;
    }

    /** A result as plain Java: null for CEL's null. */
    static Object toJava(Object v) {
        return v instanceof NullValue ? null : v;
    }

    /** A result as JSON. */
    public static JsonNode toJson(Object v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (v == null || v instanceof NullValue) {
            return f.nullNode();
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = f.objectNode();
            m.forEach((k, val) -> o.set(String.valueOf(k), toJson(val)));
            return o;
        }
        if (v instanceof Iterable<?> l) {
            ArrayNode a = f.arrayNode();
            l.forEach(x -> a.add(toJson(x)));
            return a;
        }
        if (v instanceof Long l) {
            return f.numberNode(l);
        }
        if (v instanceof Double d) {
            return f.numberNode(d);
        }
        if (v instanceof Boolean b) {
            return f.booleanNode(b);
        }
        return f.textNode(String.valueOf(v));
    }
}
