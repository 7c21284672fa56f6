package io.kubelix.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/**
 * kube's structural defaulting (apiserver/schema/defaulting): a field missing from an object, or
 * null where the schema does not allow null, gets the {@code default} of its schema (a copy), top
 * down, so defaults inside a defaulted object apply too; items of lists and values of maps are
 * defaulted by their schemas.
 */
public final class Defaulting {

    private Defaulting() {
    }

    /** Defaults {@code obj} in place by {@code schema}. */
    public static void apply(JsonNode obj, JsonNode schema) {
        walk(obj, schema);
    }

    private static void walk(JsonNode value, JsonNode s) {
        if (s == null || !s.isObject()) {
            return;
        }
        if (value instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = s.path("properties").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                JsonNode ps = p.getValue();
                JsonNode current = o.get(p.getKey());
                boolean nullNotAllowed = current != null && current.isNull() && !ps.path("nullable").asBoolean(false);
                if (ps.has("default") && (current == null || nullNotAllowed)) {
                    o.set(p.getKey(), ps.get("default").deepCopy());
                }
            }
            JsonNode props = s.path("properties");
            JsonNode additional = s.get("additionalProperties");
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode ps = props.get(f.getKey());
                if (ps == null && additional != null && additional.isObject()) {
                    ps = additional;
                    if (f.getValue().isNull() && ps.has("default") && !ps.path("nullable").asBoolean(false)) {
                        f.setValue(ps.get("default").deepCopy());
                    }
                }
                walk(f.getValue(), ps);
            }
        } else if (value instanceof ArrayNode a) {
            JsonNode items = s.get("items");
            if (items != null && items.has("default") && !items.path("nullable").asBoolean(false)) {
                for (int i = 0; i < a.size(); i++) {
                    if (a.get(i).isNull()) {
                        a.set(i, items.get("default").deepCopy());
                    }
                }
            }
            for (JsonNode item : a) {
                walk(item, items);
            }
        }
    }
}
