package io.kubelix.runtime.fieldmanager;

import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The fields an apply would take from other managers (merge.Conflicts), one per manager and path. */
final class Conflicts extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** One conflict: the manager identifier and the path it owns. */
    record Conflict(String managerId, List<PathElement> path) {
    }

    private final transient List<Conflict> conflicts;

    Conflicts(List<Conflict> conflicts) {
        super(null, null, false, false);
        this.conflicts = List.copyOf(conflicts);
    }

    /** The conflicts of each manager's set, managers in name order. */
    static Conflicts of(Map<String, FieldSet> byManager) {
        List<Conflict> all = new ArrayList<>();
        new TreeMap<>(byManager).forEach((id, set) -> set.forEachPath(p -> all.add(new Conflict(id, p))));
        return new Conflicts(all);
    }

    List<Conflict> conflicts() {
        return conflicts;
    }

    /** The paths in conflict, as a set. */
    FieldSet toSet() {
        FieldSet s = new FieldSet();
        conflicts.forEach(c -> s.insert(c.path()));
        return s;
    }

    /** These conflicts without the paths of {@code allowed}. */
    Conflicts without(FieldSet allowed) {
        return new Conflicts(conflicts.stream().filter(c -> !allowed.has(c.path())).toList());
    }

    /**
     * The 409 kube answers: {@code Apply failed with 1 conflict: conflict with "m": .spec.replicas},
     * with one {@code FieldManagerConflict} cause per path.
     */
    StatusException toStatus() {
        List<StatusCause> causes = new ArrayList<>();
        for (Conflict c : conflicts) {
            causes.add(new StatusCause("FieldManagerConflict", "conflict with " + printed(c.managerId()),
                    PathElement.pathString(c.path())));
        }
        String message;
        if (conflicts.size() == 1) {
            Conflict c = conflicts.get(0);
            message = "Apply failed with 1 conflict: conflict with " + printed(c.managerId()) + ": "
                    + PathElement.pathString(c.path());
        } else {
            Map<String, List<String>> byManager = new TreeMap<>();
            conflicts.forEach(c -> byManager.computeIfAbsent(printed(c.managerId()), k -> new ArrayList<>())
                    .add(PathElement.pathString(c.path())));
            List<String> lines = new ArrayList<>();
            byManager.forEach((m, paths) -> {
                lines.add("conflicts with " + m + ":");
                paths.forEach(p -> lines.add("- " + p));
            });
            message = "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
        }
        return new StatusException(StatusReason.CONFLICT, 409, message,
                new StatusException.Details(null, null, null, causes, 0), null);
    }

    private static String printed(String managerId) {
        return ManagedFields.Manager.parse(managerId).printed();
    }
}
