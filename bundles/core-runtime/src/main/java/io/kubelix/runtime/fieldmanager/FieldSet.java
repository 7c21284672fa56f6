package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A set of field paths (structured-merge-diff's fieldpath.Set): a tree whose nodes hold the
 * path elements that are members of the set and the subsets under each element. A path can be a
 * member and have children at once: a map that a manager owns as a whole and some of whose keys
 * it owns too. The set operations return new sets; {@link #insert} is the only mutator.
 *
 * <p>Its serialized form is kube's FieldsV1: one object member per element ({@code f:}, {@code k:},
 * {@code v:}, {@code i:}), {@code {}} for a member without children, and {@code ".": {}} beside the
 * children of an element that is also a member.
 */
public final class FieldSet {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String SELF = ".";

    private final TreeSet<PathElement> members = new TreeSet<>();
    private final TreeMap<PathElement, FieldSet> children = new TreeMap<>();

    public FieldSet() {
    }

    /** A set of the given paths. */
    @SafeVarargs
    public static FieldSet of(List<PathElement>... paths) {
        FieldSet s = new FieldSet();
        for (List<PathElement> p : paths) {
            s.insert(p);
        }
        return s;
    }

    /** Adds a path (the empty path is ignored: the root is never a member). */
    public FieldSet insert(List<PathElement> path) {
        if (path.isEmpty()) {
            return this;
        }
        FieldSet node = this;
        for (int i = 0; i < path.size() - 1; i++) {
            node = node.children.computeIfAbsent(path.get(i), k -> new FieldSet());
        }
        node.members.add(path.get(path.size() - 1));
        return this;
    }

    public boolean has(List<PathElement> path) {
        FieldSet node = this;
        for (int i = 0; i < path.size() - 1; i++) {
            node = node.children.get(path.get(i));
            if (node == null) {
                return false;
            }
        }
        return !path.isEmpty() && node.members.contains(path.get(path.size() - 1));
    }

    public boolean isEmpty() {
        if (!members.isEmpty()) {
            return false;
        }
        for (FieldSet c : children.values()) {
            if (!c.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The paths under {@code element}, relative to it (an empty set when there are none). */
    public FieldSet withPrefix(PathElement element) {
        FieldSet c = children.get(element);
        return c == null ? new FieldSet() : c;
    }

    /** Whether {@code element} is itself a member of this node. */
    boolean hasMember(PathElement element) {
        return members.contains(element);
    }

    /** The elements of this node that are members or have children. */
    TreeSet<PathElement> elements() {
        TreeSet<PathElement> all = new TreeSet<>(members);
        children.forEach((k, v) -> {
            if (!v.isEmpty()) {
                all.add(k);
            }
        });
        return all;
    }

    public FieldSet union(FieldSet o) {
        FieldSet r = copy();
        r.members.addAll(o.members);
        o.children.forEach((k, v) -> {
            FieldSet mine = r.children.get(k);
            r.children.put(k, mine == null ? v.copy() : mine.union(v));
        });
        return r;
    }

    public FieldSet intersection(FieldSet o) {
        FieldSet r = new FieldSet();
        for (PathElement m : members) {
            if (o.members.contains(m)) {
                r.members.add(m);
            }
        }
        children.forEach((k, v) -> {
            FieldSet theirs = o.children.get(k);
            if (theirs != null) {
                r.putChild(k, v.intersection(theirs));
            }
        });
        return r;
    }

    /** The paths of this set that are not in {@code o}; the children of a removed member stay. */
    public FieldSet difference(FieldSet o) {
        FieldSet r = new FieldSet();
        for (PathElement m : members) {
            if (!o.members.contains(m)) {
                r.members.add(m);
            }
        }
        children.forEach((k, v) -> {
            FieldSet theirs = o.children.get(k);
            r.putChild(k, theirs == null ? v.copy() : v.difference(theirs));
        });
        return r;
    }

    /** The paths of this set that are neither in {@code o} nor under a member of {@code o}. */
    public FieldSet recursiveDifference(FieldSet o) {
        FieldSet r = new FieldSet();
        for (PathElement m : members) {
            if (!o.members.contains(m)) {
                r.members.add(m);
            }
        }
        children.forEach((k, v) -> {
            if (o.members.contains(k)) {
                return;
            }
            FieldSet theirs = o.children.get(k);
            r.putChild(k, theirs == null ? v.copy() : v.recursiveDifference(theirs));
        });
        return r;
    }

    /** Every member path, a node's members before its children's, in element order. */
    public void forEachPath(Consumer<List<PathElement>> action) {
        forEachPath(new ArrayList<>(), action);
    }

    private void forEachPath(List<PathElement> prefix, Consumer<List<PathElement>> action) {
        for (PathElement m : members) {
            List<PathElement> p = new ArrayList<>(prefix);
            p.add(m);
            action.accept(List.copyOf(p));
        }
        children.forEach((k, v) -> {
            prefix.add(k);
            v.forEachPath(prefix, action);
            prefix.remove(prefix.size() - 1);
        });
    }

    public List<List<PathElement>> paths() {
        List<List<PathElement>> all = new ArrayList<>();
        forEachPath(all::add);
        return all;
    }

    /** The set as a FieldsV1 object. */
    public ObjectNode toFieldsV1() {
        ObjectNode out = F.objectNode();
        for (PathElement e : elements()) {
            FieldSet c = children.get(e);
            ObjectNode v = c == null || c.isEmpty() ? F.objectNode() : c.toFieldsV1();
            if (members.contains(e) && !v.isEmpty()) {
                ObjectNode withSelf = F.objectNode();
                withSelf.putObject(SELF);
                withSelf.setAll(v);
                v = withSelf;
            }
            out.set(e.toFieldsV1(), v);
        }
        return out;
    }

    /**
     * Reads a FieldsV1 object.
     *
     * @throws IllegalArgumentException when it is not one
     */
    public static FieldSet fromFieldsV1(JsonNode node) {
        if (!(node instanceof ObjectNode o)) {
            throw new IllegalArgumentException("FieldsV1 must be an object");
        }
        FieldSet s = new FieldSet();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals(SELF)) {
                continue;
            }
            PathElement pe = PathElement.parseFieldsV1(e.getKey());
            JsonNode v = e.getValue();
            if (!v.isObject()) {
                throw new IllegalArgumentException("FieldsV1 member \"" + e.getKey() + "\" must be an object");
            }
            if (v.isEmpty() || v.has(SELF)) {
                s.members.add(pe);
            }
            FieldSet child = fromFieldsV1(v);
            if (!child.isEmpty()) {
                s.children.put(pe, child);
            }
        }
        return s;
    }

    private void putChild(PathElement k, FieldSet child) {
        if (!child.isEmpty()) {
            children.put(k, child);
        }
    }

    private FieldSet copy() {
        FieldSet r = new FieldSet();
        r.members.addAll(members);
        children.forEach((k, v) -> r.children.put(k, v.copy()));
        return r;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSet s && toFieldsV1().equals(s.toFieldsV1());
    }

    @Override
    public int hashCode() {
        return toFieldsV1().hashCode();
    }

    @Override
    public String toString() {
        return toFieldsV1().toString();
    }
}
