package io.kubelix.api.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Objects;

/**
 * A Kubernetes object as a JSON tree (k8s' unstructured.Unstructured), with typed accessors for
 * {@code apiVersion}, {@code kind} and {@code metadata}. The tree is mutable and not thread-safe:
 * storage hands out a fresh tree on every read, so a caller owns what it gets.
 */
public final class Unstructured {
    private final ObjectNode object;

    private Unstructured(ObjectNode object) {
        this.object = Objects.requireNonNull(object, "object");
    }

    /** Wraps a tree; the wrapper reads and writes through to it. */
    public static Unstructured wrap(ObjectNode object) {
        return new Unstructured(object);
    }

    /** A new empty object of the given apiVersion and kind. */
    public static Unstructured of(String apiVersion, String kind) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", apiVersion);
        o.put("kind", kind);
        o.putObject("metadata");
        return new Unstructured(o);
    }

    /** The underlying tree. */
    public ObjectNode object() {
        return object;
    }

    public String apiVersion() {
        return text(object, "apiVersion");
    }

    public Unstructured apiVersion(String apiVersion) {
        object.put("apiVersion", apiVersion);
        return this;
    }

    public String kind() {
        return text(object, "kind");
    }

    public Unstructured kind(String kind) {
        object.put("kind", kind);
        return this;
    }

    /** The object's metadata, created empty when absent (a {@code null} metadata is replaced). */
    public ObjectMeta metadata() {
        JsonNode m = object.get("metadata");
        if (!(m instanceof ObjectNode)) {
            m = object.putObject("metadata");
        }
        return ObjectMeta.wrap((ObjectNode) m);
    }

    /** A deep copy, sharing nothing with this object. */
    public Unstructured deepCopy() {
        return new Unstructured(object.deepCopy());
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    @Override
    public String toString() {
        return object.toString();
    }
}
