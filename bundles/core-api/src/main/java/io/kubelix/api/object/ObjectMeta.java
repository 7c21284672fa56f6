package io.kubelix.api.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed access to an object's {@code metadata} (metav1.ObjectMeta), reading and writing through
 * to the JSON tree. Setting a value to null removes the field, as omitempty would.
 */
public final class ObjectMeta {
    private final ObjectNode node;

    private ObjectMeta(ObjectNode node) {
        this.node = node;
    }

    public static ObjectMeta wrap(ObjectNode metadata) {
        return new ObjectMeta(metadata);
    }

    public ObjectNode node() {
        return node;
    }

    public String name() {
        return Unstructured.text(node, "name");
    }

    public ObjectMeta name(String v) {
        return put("name", v);
    }

    public String generateName() {
        return Unstructured.text(node, "generateName");
    }

    public ObjectMeta generateName(String v) {
        return put("generateName", v);
    }

    public String namespace() {
        return Unstructured.text(node, "namespace");
    }

    public ObjectMeta namespace(String v) {
        return put("namespace", v);
    }

    public String uid() {
        return Unstructured.text(node, "uid");
    }

    public ObjectMeta uid(String v) {
        return put("uid", v);
    }

    public String resourceVersion() {
        return Unstructured.text(node, "resourceVersion");
    }

    public ObjectMeta resourceVersion(String v) {
        return put("resourceVersion", v);
    }

    /** metadata.generation, or 0 when unset. */
    public long generation() {
        JsonNode v = node.get("generation");
        return v == null || !v.canConvertToLong() ? 0 : v.asLong();
    }

    public ObjectMeta generation(long v) {
        node.put("generation", v);
        return this;
    }

    /** RFC 3339 timestamp with second precision, such as {@code 2024-01-02T03:04:05Z}. */
    public String creationTimestamp() {
        return Unstructured.text(node, "creationTimestamp");
    }

    public ObjectMeta creationTimestamp(String v) {
        return put("creationTimestamp", v);
    }

    public String deletionTimestamp() {
        return Unstructured.text(node, "deletionTimestamp");
    }

    public ObjectMeta deletionTimestamp(String v) {
        return put("deletionTimestamp", v);
    }

    public Map<String, String> labels() {
        return stringMap("labels");
    }

    public ObjectMeta labels(Map<String, String> v) {
        return putMap("labels", v);
    }

    public Map<String, String> annotations() {
        return stringMap("annotations");
    }

    public ObjectMeta annotations(Map<String, String> v) {
        return putMap("annotations", v);
    }

    public List<String> finalizers() {
        JsonNode v = node.get("finalizers");
        if (!(v instanceof ArrayNode a)) {
            return List.of();
        }
        List<String> out = new ArrayList<>(a.size());
        a.forEach(e -> out.add(e.asText()));
        return Collections.unmodifiableList(out);
    }

    /** metadata.ownerReferences as JSON objects (never null). */
    public List<ObjectNode> ownerReferences() {
        JsonNode v = node.get("ownerReferences");
        if (!(v instanceof ArrayNode a)) {
            return List.of();
        }
        List<ObjectNode> out = new ArrayList<>(a.size());
        a.forEach(e -> {
            if (e instanceof ObjectNode o) {
                out.add(o);
            }
        });
        return Collections.unmodifiableList(out);
    }

    private ObjectMeta put(String field, String v) {
        if (v == null) {
            node.remove(field);
        } else {
            node.put(field, v);
        }
        return this;
    }

    private Map<String, String> stringMap(String field) {
        JsonNode v = node.get(field);
        if (!(v instanceof ObjectNode o)) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        o.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        return Collections.unmodifiableMap(out);
    }

    private ObjectMeta putMap(String field, Map<String, String> v) {
        if (v == null || v.isEmpty()) {
            node.remove(field);
            return this;
        }
        ObjectNode o = node.putObject(field);
        v.forEach(o::put);
        return this;
    }
}
