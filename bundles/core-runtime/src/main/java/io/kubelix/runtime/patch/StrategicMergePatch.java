package io.kubelix.runtime.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Strategic merge patch (apimachinery's strategicpatch), driven by the resource's OpenAPI schema:
 * a list whose field has {@code x-kubernetes-patch-strategy: merge} is merged element by element,
 * maps matched on {@code x-kubernetes-patch-merge-key} and primitives as a set; any other list is
 * replaced. Maps merge as in a JSON merge patch. The directives: {@code $patch: replace|delete|merge}
 * on a map or as a list element, {@code $retainKeys}, {@code $deleteFromPrimitiveList/<field>} and
 * {@code $setElementOrder/<field>}. Without a schema every list is replaced, which is what a
 * strategic merge patch does to lists it has no strategy for.
 */
final class StrategicMergePatch {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder/";

    /** Turns a schema that may be a {@code $ref} (or an {@code allOf} of one) into the definition it names. */
    private final Function<JsonNode, ObjectNode> resolve;

    private StrategicMergePatch(Function<JsonNode, ObjectNode> resolve) {
        this.resolve = resolve;
    }

    /**
     * Applies {@code patch} to {@code original} (changed in place) under {@code schema}, the
     * definition of the object's kind, or null when the resource has none.
     *
     * @param resolve the definition a {@code $ref} names, or null when it names none here
     * @return the patched object, or null when the patch deletes it
     */
    static JsonNode apply(ObjectNode original, ObjectNode patch, ObjectNode schema,
                          Function<JsonNode, ObjectNode> resolve) {
        return new StrategicMergePatch(resolve).mergeMap(original, patch, schema);
    }

    private JsonNode mergeMap(JsonNode target, ObjectNode patch, ObjectNode schema) {
        ObjectNode result = target instanceof ObjectNode o ? o : F.objectNode();
        switch (patch.path(PATCH).asText("")) {
            case "", "merge" -> { }
            case "replace" -> {
                return clean(withoutDirectives(patch), schema);
            }
            case "delete" -> {
                return null;
            }
            default -> throw StatusException.badRequest("unknown patch type: " + patch.path(PATCH).asText() + " in map");
        }
        JsonNode retain = patch.get(RETAIN_KEYS);
        if (retain != null) {
            retainKeys(result, patch, retain);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                deleteFromPrimitiveList(result, key.substring(DELETE_FROM_PRIMITIVE_LIST.length()), value);
                continue;
            }
            if (key.startsWith("$")) {
                continue;
            }
            if (value.isNull()) {
                result.remove(key);
                continue;
            }
            ObjectNode fieldSchema = property(schema, key);
            JsonNode merged = merge(result.get(key), value, fieldSchema, patch.get(SET_ELEMENT_ORDER + key));
            if (merged == null) {
                result.remove(key);
            } else {
                result.set(key, merged);
            }
        }
        return result;
    }

    /** Merges one field's patch value into its current value (null when the field is absent). */
    private JsonNode merge(JsonNode current, JsonNode patch, ObjectNode schema, JsonNode order) {
        if (patch instanceof ObjectNode p) {
            if (current == null || !current.isObject()) {
                return clean(p, schema);
            }
            return mergeMap(current, p, definition(schema));
        }
        if (patch instanceof ArrayNode p) {
            if (isMergeList(schema) && (current == null || current.isArray())) {
                return mergeList(current == null ? F.arrayNode() : (ArrayNode) current, p, schema, order);
            }
            return clean(p, schema);
        }
        return patch;
    }

    private boolean isMergeList(ObjectNode schema) {
        return schema != null && schema.path("x-kubernetes-patch-strategy").asText("").contains("merge");
    }

    /** A list with the merge strategy: maps matched on the merge key, primitives as a set. */
    private ArrayNode mergeList(ArrayNode current, ArrayNode patch, ObjectNode schema, JsonNode order) {
        String mergeKey = schema.path("x-kubernetes-patch-merge-key").asText("");
        ObjectNode items = definition(schema.get("items"));
        for (JsonNode p : patch) {
            if (p.isObject() && p.path(PATCH).asText("").equals("replace")) {
                // {"$patch": "replace"} as an element: the list is replaced by the patch's other elements.
                ArrayNode replaced = F.arrayNode();
                patch.forEach(q -> {
                    if (!(q.isObject() && q.has(PATCH))) {
                        replaced.add(q.isObject() ? clean((ObjectNode) q, items) : q);
                    }
                });
                return replaced;
            }
        }
        ArrayNode result = current;
        for (JsonNode p : patch) {
            if (p.isObject()) {
                if (mergeKey.isEmpty()) {
                    throw StatusException.badRequest("map list element without a merge key to merge on: " + p);
                }
                JsonNode keyValue = p.get(mergeKey);
                if (keyValue == null) {
                    throw StatusException.badRequest("map: " + p + " does not contain declared merge key: " + mergeKey);
                }
                int at = indexOf(result, mergeKey, keyValue);
                String directive = p.path(PATCH).asText("");
                if (directive.equals("delete")) {
                    if (at >= 0) {
                        result.remove(at);
                    }
                    continue;
                }
                if (!directive.isEmpty() && !directive.equals("merge")) {
                    throw StatusException.badRequest("unknown patch type: " + directive + " in list element");
                }
                if (at >= 0) {
                    result.set(at, mergeMap(result.get(at), (ObjectNode) p, items));
                } else {
                    result.add(clean(p, items));
                }
            } else if (!contains(result, p)) {
                result.add(p);
            }
        }
        if (order instanceof ArrayNode o) {
            return ordered(result, o, mergeKey);
        }
        return result;
    }

    /**
     * {@code $setElementOrder/<field>}: the elements the order names come in that order; the
     * others (only on the server) keep their places relative to them, as kube's
     * normalizeElementOrder merges the two sequences.
     */
    private static ArrayNode ordered(ArrayNode list, ArrayNode order, String mergeKey) {
        List<JsonNode> inOrder = new ArrayList<>();
        List<JsonNode> others = new ArrayList<>();
        for (JsonNode e : list) {
            (positionIn(order, e, mergeKey) >= 0 ? inOrder : others).add(e);
        }
        inOrder.sort((a, b) -> Integer.compare(positionIn(order, a, mergeKey), positionIn(order, b, mergeKey)));
        ArrayNode result = F.arrayNode();
        int i = 0;
        int j = 0;
        while (i < inOrder.size() || j < others.size()) {
            if (j >= others.size()) {
                result.add(inOrder.get(i++));
            } else if (i >= inOrder.size()) {
                result.add(others.get(j++));
            } else if (indexIn(list, others.get(j)) < indexIn(list, inOrder.get(i))) {
                result.add(others.get(j++));
            } else {
                result.add(inOrder.get(i++));
            }
        }
        return result;
    }

    private static int positionIn(ArrayNode order, JsonNode element, String mergeKey) {
        for (int k = 0; k < order.size(); k++) {
            JsonNode o = order.get(k);
            if (element.isObject() && o.isObject() && !mergeKey.isEmpty()
                    ? Objects.equals(o.get(mergeKey), element.get(mergeKey)) : o.equals(element)) {
                return k;
            }
        }
        return -1;
    }

    private static int indexIn(ArrayNode list, JsonNode element) {
        for (int k = 0; k < list.size(); k++) {
            if (list.get(k) == element) {
                return k;
            }
        }
        return -1;
    }

    private static void deleteFromPrimitiveList(ObjectNode target, String field, JsonNode values) {
        if (!values.isArray()) {
            throw StatusException.badRequest(DELETE_FROM_PRIMITIVE_LIST + field + " must be a list");
        }
        if (target.get(field) instanceof ArrayNode list) {
            for (int k = list.size() - 1; k >= 0; k--) {
                if (contains((ArrayNode) values, list.get(k))) {
                    list.remove(k);
                }
            }
        }
    }

    private static void retainKeys(ObjectNode result, ObjectNode patch, JsonNode retain) {
        if (!retain.isArray()) {
            throw StatusException.badRequest("$retainKeys must be a list of strings");
        }
        Set<String> keep = new HashSet<>();
        retain.forEach(k -> keep.add(k.asText()));
        patch.fields().forEachRemaining(e -> {
            if (!e.getKey().startsWith("$") && !e.getValue().isNull() && !keep.contains(e.getKey())) {
                throw StatusException.badRequest("invalid patch format of retainKeys: " + e.getKey() + " is not in the list");
            }
        });
        result.retain(keep.stream().filter(k -> result.has(k) || patch.has(k)).toList());
    }

    /** A patch value that lands where nothing was: its directives and the elements it deletes go. */
    private JsonNode clean(JsonNode value, ObjectNode schema) {
        if (value instanceof ObjectNode o) {
            if (o.path(PATCH).asText("").equals("delete")) {
                return null;
            }
            ObjectNode def = definition(schema);
            ObjectNode out = F.objectNode();
            o.fields().forEachRemaining(e -> {
                if (!e.getKey().startsWith("$") && !e.getValue().isNull()) {
                    JsonNode c = clean(e.getValue(), property(def, e.getKey()));
                    if (c != null) {
                        out.set(e.getKey(), c);
                    }
                }
            });
            return out;
        }
        if (value instanceof ArrayNode a) {
            ObjectNode items = schema == null ? null : definition(schema.get("items"));
            ArrayNode out = F.arrayNode();
            a.forEach(e -> {
                JsonNode c = clean(e, items);
                if (c != null) {
                    out.add(c);
                }
            });
            return out;
        }
        return value;
    }

    private static ObjectNode withoutDirectives(ObjectNode patch) {
        ObjectNode copy = patch.deepCopy();
        copy.remove(PATCH);
        return copy;
    }

    /** The schema of a map's field: a named property, else the map's additionalProperties. */
    private ObjectNode property(ObjectNode schema, String field) {
        ObjectNode def = definition(schema);
        if (def == null) {
            return null;
        }
        JsonNode p = def.path("properties").get(field);
        if (p instanceof ObjectNode prop) {
            return prop;
        }
        return def.get("additionalProperties") instanceof ObjectNode ap ? ap : null;
    }

    /**
     * The definition behind a field's schema: the referenced definition, keeping the field's own
     * extensions ({@code x-kubernetes-patch-strategy} sits beside the {@code allOf} that refers).
     */
    private ObjectNode definition(JsonNode schema) {
        if (!(schema instanceof ObjectNode s)) {
            return null;
        }
        ObjectNode target = resolve == null ? null : resolve.apply(s);
        return target != null ? target : s;
    }

    private static int indexOf(ArrayNode list, String mergeKey, JsonNode keyValue) {
        for (int k = 0; k < list.size(); k++) {
            if (Objects.equals(list.get(k).get(mergeKey), keyValue)) {
                return k;
            }
        }
        return -1;
    }

    private static boolean contains(ArrayNode list, JsonNode value) {
        for (JsonNode e : list) {
            if (e.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
