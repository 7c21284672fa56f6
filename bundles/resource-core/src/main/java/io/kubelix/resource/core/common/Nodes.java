package io.kubelix.resource.core.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Small reads of unstructured objects shared by the strategies. An absent field and an explicit
 * JSON null mean the same (Go's omitempty), so both read as "not set".
 */
public final class Nodes {

    private Nodes() {
    }

    /** Whether the field is absent or JSON null. */
    public static boolean isUnset(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v == null || v.isNull();
    }

    /** The field as an object, or null when absent, null or of another type. */
    public static ObjectNode object(JsonNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : null;
    }

    /** The field's text, or "" when absent, null or not a string. */
    public static String text(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }

    /** Whether the field is the boolean {@code true} (a {@code *bool} set to true). */
    public static boolean isTrue(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v != null && v.isBoolean() && v.booleanValue();
    }

    /** {@code metadata.name}, or "" when unset. */
    public static String name(ObjectNode obj) {
        return text(obj.path("metadata"), "name");
    }
}
