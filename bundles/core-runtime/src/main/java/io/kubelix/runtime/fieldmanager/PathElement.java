package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One step of a field path (structured-merge-diff's fieldpath.PathElement): a struct or map
 * field by name, an associative list item by its key fields, a set list item by its value, or a
 * list item by index. Elements order as kube orders them: fields, then keys, then values, then
 * indices, which is the order of a FieldsV1 document.
 */
public final class PathElement implements Comparable<PathElement> {
    enum Kind { FIELD, KEY, VALUE, INDEX }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Kind kind;
    private final String name;
    private final JsonNode value;
    private final int index;
    /** The compact JSON of a key or value, which identifies and orders it. */
    private final String encoded;

    private PathElement(Kind kind, String name, JsonNode value, int index, String encoded) {
        this.kind = kind;
        this.name = name;
        this.value = value;
        this.index = index;
        this.encoded = encoded;
    }

    public static PathElement field(String name) {
        return new PathElement(Kind.FIELD, name, null, 0, name);
    }

    /** An associative list item by its key fields; their order does not matter. */
    public static PathElement key(Map<String, JsonNode> fields) {
        ObjectNode sorted = JsonNodeFactory.instance.objectNode();
        new TreeMap<>(fields).forEach(sorted::set);
        return new PathElement(Kind.KEY, null, sorted, 0, json(sorted));
    }

    public static PathElement value(JsonNode value) {
        return new PathElement(Kind.VALUE, null, value, 0, json(value));
    }

    public static PathElement index(int index) {
        return new PathElement(Kind.INDEX, null, null, index, Integer.toString(index));
    }

    Kind kind() {
        return kind;
    }

    /** The field name of a FIELD element. */
    String name() {
        return name;
    }

    /** The key fields (an object) of a KEY element, or the value of a VALUE element. */
    JsonNode keyOrValue() {
        return value;
    }

    int index() {
        return index;
    }

    /** The element as a FieldsV1 member name: {@code f:name}, {@code k:{"name":"x"}}, {@code v:"x"}, {@code i:0}. */
    String toFieldsV1() {
        return switch (kind) {
            case FIELD -> "f:" + name;
            case KEY -> "k:" + encoded;
            case VALUE -> "v:" + encoded;
            case INDEX -> "i:" + index;
        };
    }

    /** Reads a FieldsV1 member name. */
    static PathElement parseFieldsV1(String s) {
        if (s.length() < 2 || s.charAt(1) != ':') {
            throw new IllegalArgumentException("unknown field path element \"" + s + "\"");
        }
        String rest = s.substring(2);
        try {
            switch (s.charAt(0)) {
                case 'f':
                    return field(rest);
                case 'k': {
                    JsonNode k = JSON.readTree(rest);
                    if (!(k instanceof ObjectNode o) || o.isEmpty()) {
                        throw new IllegalArgumentException("invalid key in \"" + s + "\"");
                    }
                    Map<String, JsonNode> fields = new TreeMap<>();
                    o.fields().forEachRemaining(e -> fields.put(e.getKey(), e.getValue()));
                    return key(fields);
                }
                case 'v':
                    return value(JSON.readTree(rest));
                case 'i':
                    return index(Integer.parseInt(rest));
                default:
                    throw new IllegalArgumentException("unknown field path element \"" + s + "\"");
            }
        } catch (JsonProcessingException | NumberFormatException e) {
            throw new IllegalArgumentException("invalid field path element \"" + s + "\": " + e.getMessage(), e);
        }
    }

    /** The element as kube prints a path: {@code .name}, {@code [name="x"]}, {@code [=x]}, {@code [0]}. */
    @Override
    public String toString() {
        return switch (kind) {
            case FIELD -> "." + name;
            case KEY -> {
                List<String> parts = new ArrayList<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    parts.add(e.getKey() + "=" + json(e.getValue()));
                }
                yield "[" + String.join(",", parts) + "]";
            }
            case VALUE -> "[=" + encoded + "]";
            case INDEX -> "[" + index + "]";
        };
    }

    /** A path as kube prints it, such as {@code .spec.template.spec.containers[name="app"].image}. */
    static String pathString(List<PathElement> path) {
        StringBuilder b = new StringBuilder();
        path.forEach(b::append);
        return b.toString();
    }

    @Override
    public int compareTo(PathElement o) {
        if (kind != o.kind) {
            return kind.compareTo(o.kind);
        }
        return kind == Kind.INDEX ? Integer.compare(index, o.index) : encoded.compareTo(o.encoded);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PathElement p && kind == p.kind && index == p.index && encoded.equals(p.encoded);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + encoded.hashCode();
    }

    private static String json(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
