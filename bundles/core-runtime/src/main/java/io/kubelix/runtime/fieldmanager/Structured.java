package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operations of structured-merge-diff on JSON objects under a {@link TypeRef}: the field set
 * of an object, the comparison of two objects, the merge of an apply configuration into a live
 * object, and the removal of fields an applier gave up.
 */
final class Structured {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * Struct fields that kube's Go types hold by value, so a live object always has them: they are
     * never added nor removed as a whole, only their fields are (no {@code ".": {}} for them). The
     * same holds for required fields, which kube's types encode even when empty.
     */
    private static final Set<String> VALUE_STRUCTS = Set.of("metadata", "spec", "status", "template", "strategy",
            "updateStrategy", "resources");

    private Structured() {
    }

    /** A child of a map, struct or list: its path element, value and type. */
    private record Child(PathElement element, JsonNode value, TypeRef type) {
    }

    /**
     * The field set of an apply configuration: its leaves, atomic values and list items.
     *
     * @throws IllegalArgumentException when the configuration does not fit the schema (a value of
     *                                  the wrong type, a map list item without its key, a duplicate item)
     */
    static FieldSet toFieldSet(JsonNode obj, TypeRef type) {
        FieldSet set = new FieldSet();
        toFieldSet(new ArrayList<>(), obj, type, set);
        return set;
    }

    private static void toFieldSet(List<PathElement> path, JsonNode value, TypeRef type, FieldSet set) {
        String mismatch = path.isEmpty() ? null : type.mismatch(value);
        if (mismatch != null) {
            throw new IllegalArgumentException(PathElement.pathString(path) + ": " + mismatch);
        }
        if (isLeaf(value, type) || value.isEmpty()) {
            set.insert(path);
            return;
        }
        boolean list = value.isArray();
        Set<PathElement> seen = new HashSet<>();
        for (Child c : children(path, value, type, true)) {
            if (list && !seen.add(c.element())) {
                throw new IllegalArgumentException(PathElement.pathString(path) + ": duplicate entries for key "
                        + c.element());
            }
            path.add(c.element());
            if (list) {
                set.insert(path);
            }
            if (!list || c.value().isContainerNode() && !c.value().isEmpty() && !isLeaf(c.value(), c.type())) {
                toFieldSet(path, c.value(), c.type(), set);
            }
            path.remove(path.size() - 1);
        }
    }

    /** Compares {@code lhs} with {@code rhs} (either may be null, for an absent object). */
    static Comparison compare(JsonNode lhs, JsonNode rhs, TypeRef type) {
        Comparison c = new Comparison(new FieldSet(), new FieldSet(), new FieldSet());
        compare(new ArrayList<>(), lhs, rhs, type, true, c);
        return c;
    }

    private static void compare(List<PathElement> path, JsonNode l, JsonNode r, TypeRef type, boolean alwaysPresent,
                                Comparison out) {
        if (l == null && r == null) {
            return;
        }
        boolean leaf = l != null && r != null && (l.isObject() != r.isObject() || l.isArray() != r.isArray())
                || isLeaf(l != null ? l : r, type)
                || (l == null || l.isEmpty()) && (r == null || r.isEmpty());
        if (leaf) {
            if (l == null) {
                out.added().insert(path);
            } else if (r == null) {
                out.removed().insert(path);
            } else if (!l.equals(r)) {
                out.modified().insert(path);
            }
            return;
        }
        Map<PathElement, Child> left = index(children(path, l, type, false));
        Map<PathElement, Child> right = index(children(path, r, type, false));
        Set<PathElement> all = new java.util.TreeSet<>(left.keySet());
        all.addAll(right.keySet());
        for (PathElement e : all) {
            Child lc = left.get(e);
            Child rc = right.get(e);
            TypeRef childType = (rc != null ? rc : lc).type();
            boolean present = e.kind() == PathElement.Kind.FIELD && (type.required(e.name())
                    || childType.isStruct() && VALUE_STRUCTS.contains(e.name()));
            path.add(e);
            compare(path, lc == null ? null : lc.value(), rc == null ? null : rc.value(), childType, present, out);
            path.remove(path.size() - 1);
        }
        if (alwaysPresent) {
            return;
        }
        if (l == null) {
            out.added().insert(path);
        } else if (r == null) {
            out.removed().insert(path);
        }
    }

    /**
     * Merges an apply configuration into a live object (typed.Merge): fields of structs and
     * granular maps merge one by one, map lists by key and sets by value, anything atomic or scalar
     * is the configuration's. Neither argument is changed.
     */
    static JsonNode merge(JsonNode lhs, JsonNode rhs, TypeRef type) {
        if (rhs == null) {
            return lhs == null ? null : lhs.deepCopy();
        }
        if (lhs == null || isLeaf(rhs, type) || lhs.isObject() != rhs.isObject() || lhs.isArray() != rhs.isArray()) {
            return rhs.deepCopy();
        }
        if (rhs.isObject()) {
            ObjectNode result = ((ObjectNode) lhs).deepCopy();
            for (Iterator<Map.Entry<String, JsonNode>> it = rhs.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                result.set(e.getKey(), merge(lhs.get(e.getKey()), e.getValue(), type.member(e.getKey())));
            }
            return result;
        }
        return mergeList((ArrayNode) lhs, (ArrayNode) rhs, type);
    }

    /**
     * The items of both lists, merged where they match: the live items the configuration does not
     * name keep their place, the configuration's items come in its order, each new one before the
     * next item both lists hold.
     */
    private static ArrayNode mergeList(ArrayNode lhs, ArrayNode rhs, TypeRef type) {
        List<Child> left = children(List.of(), lhs, type, false);
        List<Child> right = children(List.of(), rhs, type, true);
        Map<PathElement, Child> leftIndex = index(left);
        Map<PathElement, Child> rightIndex = index(right);
        TypeRef items = type.items();
        ArrayNode out = F.arrayNode();
        Set<PathElement> emitted = new HashSet<>();
        int ri = 0;
        for (Child lc : left) {
            if (!rightIndex.containsKey(lc.element())) {
                out.add(lc.value().deepCopy());
                continue;
            }
            while (ri < right.size()) {
                Child rc = right.get(ri++);
                if (emitted.add(rc.element())) {
                    Child match = leftIndex.get(rc.element());
                    out.add(merge(match == null ? null : match.value(), rc.value(), items));
                }
                if (rc.element().equals(lc.element())) {
                    break;
                }
            }
        }
        for (; ri < right.size(); ri++) {
            Child rc = right.get(ri);
            if (emitted.add(rc.element())) {
                Child match = leftIndex.get(rc.element());
                out.add(merge(match == null ? null : match.value(), rc.value(), items));
            }
        }
        return out;
    }

    /**
     * Removes from {@code value} the paths of {@code last} (what an applier owned before) that no
     * manager owns now ({@code owned}), keeping a map or item that someone still owns a part of,
     * and a list item's key fields. Returns null when nothing is left of a value that had content.
     */
    static JsonNode prune(JsonNode value, FieldSet last, FieldSet owned, TypeRef type) {
        return prune(List.of(), value, last, owned, type, List.of());
    }

    private static JsonNode prune(List<PathElement> path, JsonNode value, FieldSet last, FieldSet owned,
                                  TypeRef type, List<String> keyFields) {
        if (value == null || last.isEmpty() || isLeaf(value, type) || value.isEmpty()) {
            return value;
        }
        boolean changed = false;
        List<JsonNode> kept = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean list = value.isArray();
        List<String> itemKeys = list && type.listType() == TypeRef.ListType.MAP ? type.keys() : List.of();
        for (Child c : children(path, value, type, false)) {
            PathElement e = c.element();
            JsonNode v = c.value();
            boolean isKey = e.kind() == PathElement.Kind.FIELD && keyFields.contains(e.name());
            if (!isKey && last.hasMember(e) && !owned.hasMember(e) && owned.withPrefix(e).isEmpty()) {
                changed = true;
                continue;
            }
            FieldSet sub = last.withPrefix(e);
            if (!isKey && !sub.isEmpty()) {
                JsonNode pruned = prune(List.of(), v, sub, owned.withPrefix(e), c.type(), itemKeys);
                if (pruned != v) {
                    changed = true;
                }
                if (pruned == null) {
                    continue;
                }
                v = pruned;
            }
            kept.add(v);
            names.add(e.kind() == PathElement.Kind.FIELD ? e.name() : null);
        }
        if (!changed) {
            return value;
        }
        if (kept.isEmpty()) {
            return null;
        }
        if (list) {
            ArrayNode out = F.arrayNode();
            kept.forEach(out::add);
            return out;
        }
        ObjectNode out = F.objectNode();
        for (int i = 0; i < kept.size(); i++) {
            out.set(names.get(i), kept.get(i));
        }
        return out;
    }

    /**
     * The path element of a list item: its key fields for a map list (a missing key takes its
     * schema default), its value for a set, else its index.
     *
     * @param strict whether an item without its keys is an error (an apply configuration) rather
     *               than named by its index (a live object that predates the schema)
     */
    static PathElement itemElement(List<PathElement> path, JsonNode item, TypeRef list, int index, boolean strict) {
        return switch (list.listType()) {
            case SET -> PathElement.value(item);
            case MAP -> {
                Map<String, JsonNode> key = new LinkedHashMap<>();
                for (String k : list.keys()) {
                    JsonNode v = item.isObject() ? item.get(k) : null;
                    if (v == null || v.isNull()) {
                        v = list.keyDefault(k);
                    }
                    if (v == null) {
                        if (strict) {
                            throw new IllegalArgumentException(PathElement.pathString(path) + ": element " + index
                                    + ": associative list with keys has an element that omits key field \"" + k
                                    + "\" (and doesn't have default value)");
                        }
                        continue;
                    }
                    key.put(k, v);
                }
                yield key.isEmpty() ? PathElement.index(index) : PathElement.key(key);
            }
            case ATOMIC -> PathElement.index(index);
        };
    }

    /** A value that is owned and compared as a whole: a scalar, an atomic struct, map or list. */
    private static boolean isLeaf(JsonNode value, TypeRef type) {
        if (value == null || !value.isContainerNode()) {
            return true;
        }
        TypeRef.Kind kind = type.kind(value);
        if (kind == TypeRef.Kind.SCALAR || (kind == TypeRef.Kind.LIST) != value.isArray()) {
            return true;
        }
        return type.atomic(value);
    }

    private static List<Child> children(List<PathElement> path, JsonNode value, TypeRef type, boolean strict) {
        List<Child> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.add(new Child(PathElement.field(e.getKey()), e.getValue(), type.member(e.getKey())));
            }
        } else if (value.isArray()) {
            TypeRef items = type.items();
            for (int i = 0; i < value.size(); i++) {
                out.add(new Child(itemElement(path, value.get(i), type, i, strict), value.get(i), items));
            }
        }
        return out;
    }

    private static Map<PathElement, Child> index(List<Child> children) {
        Map<PathElement, Child> m = new HashMap<>();
        for (Child c : children) {
            m.putIfAbsent(c.element(), c);
        }
        return m;
    }
}
