package io.kubelix.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * kube's structural pruning (apiserver/schema/pruning): removes every field the schema does not
 * specify, unless the object says {@code x-kubernetes-preserve-unknown-fields: true} or has
 * {@code additionalProperties}. {@code apiVersion}, {@code kind} and {@code metadata} of the object
 * and of embedded resources are kept: they are the server's.
 */
public final class Pruning {
    private static final Set<String> RESOURCE_FIELDS = Set.of("apiVersion", "kind", "metadata");

    private Pruning() {
    }

    /** Prunes {@code obj} in place; returns the paths removed ({@code spec.unknown}), as kube reports them. */
    public static List<String> prune(ObjectNode obj, JsonNode schema) {
        List<String> pruned = new ArrayList<>();
        walk(obj, schema, "", true, pruned);
        return pruned;
    }

    private static void walk(JsonNode value, JsonNode s, String path, boolean resource, List<String> pruned) {
        if (s == null || !s.isObject()) {
            return;
        }
        if (value instanceof ObjectNode o) {
            boolean embedded = resource || s.path("x-kubernetes-embedded-resource").asBoolean(false);
            boolean preserve = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
            JsonNode props = s.path("properties");
            JsonNode additional = s.get("additionalProperties");
            for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                String p = path.isEmpty() ? name : path + "." + name;
                if (embedded && RESOURCE_FIELDS.contains(name)) {
                    if (props.has(name) && !name.equals("metadata")) {
                        walk(o.get(name), props.get(name), p, false, pruned);
                    }
                    continue;
                }
                JsonNode ps = props.get(name);
                if (ps == null && additional != null) {
                    ps = additional.isObject() ? additional : null;
                    if (ps == null && additional.asBoolean(false)) {
                        continue;
                    }
                }
                if (ps == null) {
                    if (!preserve) {
                        pruned.add(p);
                        it.remove();
                    }
                    continue;
                }
                walk(o.get(name), ps, p, false, pruned);
            }
        } else if (value instanceof ArrayNode a) {
            JsonNode items = s.get("items");
            for (int i = 0; i < a.size(); i++) {
                walk(a.get(i), items, path + "[" + i + "]", false, pruned);
            }
        }
    }
}
