package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;

/**
 * The ownership rules of server-side apply (structured-merge-diff's merge.Updater), on the
 * managers of one object. An update takes the fields it changes from whoever owned them; an
 * apply owns exactly the fields of its configuration, removes the fields it owned before and no
 * longer applies unless another manager owns them, and fails with {@link Conflicts} when it would
 * change a value another manager owns, unless forced.
 */
final class Updater {
    private final TypeRef type;
    /** The fields the resource's strategy resets at this endpoint, which nobody owns through it. */
    private final FieldSet ignored;

    Updater(TypeRef type, FieldSet ignored) {
        this.type = type;
        this.ignored = ignored;
    }

    /**
     * Takes from every manager but {@code workflow} the fields the change from {@code live} to
     * {@code changed} modified or removed; with {@code force == false}, a modified field owned by
     * another manager is a conflict instead.
     *
     * @return the comparison of the two objects
     */
    Comparison update(JsonNode live, JsonNode changed, ManagedFields managers, String workflow, boolean force) {
        Comparison compare = Structured.compare(live, changed, type).without(ignored);
        FieldSet touched = compare.modified().union(compare.added());
        Map<String, FieldSet> conflicts = new HashMap<>();
        managers.fields.forEach((id, vs) -> {
            if (id.equals(workflow)) {
                return;
            }
            FieldSet c = vs.set().intersection(touched);
            if (!c.isEmpty()) {
                conflicts.put(id, c);
            }
        });
        if (!force && !conflicts.isEmpty()) {
            throw Conflicts.of(conflicts);
        }
        for (String id : Map.copyOf(managers.fields).keySet()) {
            if (id.equals(workflow)) {
                continue;
            }
            ManagedFields.VersionedSet vs = managers.fields.get(id);
            FieldSet left = vs.set().difference(conflicts.getOrDefault(id, new FieldSet())).difference(compare.removed());
            if (left.isEmpty()) {
                managers.fields.remove(id);
            } else {
                managers.fields.put(id, new ManagedFields.VersionedSet(left, vs.apiVersion(), vs.applied()));
            }
        }
        return compare;
    }

    /**
     * Applies {@code config} by {@code manager} to {@code live}.
     *
     * @return the new object, the same as {@code live} when the apply changes nothing
     * @throws Conflicts when the apply would change values other managers own and is not forced
     */
    JsonNode apply(JsonNode live, JsonNode config, FieldSet configSet, String version, ManagedFields managers,
                   String manager, boolean force) {
        JsonNode merged = Structured.merge(live, config, type);
        ManagedFields.VersionedSet last = managers.fields.get(manager);
        managers.fields.put(manager, new ManagedFields.VersionedSet(configSet.recursiveDifference(ignored),
                version, true));
        if (last != null && !last.set().isEmpty()) {
            FieldSet owned = new FieldSet();
            for (ManagedFields.VersionedSet vs : managers.fields.values()) {
                owned = owned.union(vs.set());
            }
            merged = Structured.prune(merged, last.set().recursiveDifference(ignored), owned, type);
        }
        update(live, merged, managers, manager, force);
        return merged;
    }
}
