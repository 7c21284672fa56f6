package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.admission.podsecurity.LevelVersion.Level;

import java.util.List;

/**
 * One Pod Security Standards check (kube's {@code policy.Check}): its id, the level it belongs to
 * (baseline checks also apply to restricted), and its revisions by the policy version they start at.
 *
 * @param id       kube's check id, which also orders the checks in messages
 * @param level    {@code BASELINE} or {@code RESTRICTED}
 * @param versions revisions, oldest first
 */
record Check(String id, Level level, List<Versioned> versions) {

    /** Decides whether a pod (its {@code metadata} and {@code spec}) passes. */
    @FunctionalInterface
    interface PodCheck {
        CheckResult check(JsonNode metadata, JsonNode spec);
    }

    /**
     * A revision of a check.
     *
     * @param minimumVersion the first policy version (minor of 1.x) it applies to
     * @param check          the revision's rule
     * @param overrides      ids of baseline checks a restricted check replaces from this version on
     */
    record Versioned(int minimumVersion, PodCheck check, List<String> overrides) {
        Versioned(int minimumVersion, PodCheck check) {
            this(minimumVersion, check, List.of());
        }
    }

    static Check baseline(String id, Versioned... versions) {
        return new Check(id, Level.BASELINE, List.of(versions));
    }

    static Check restricted(String id, Versioned... versions) {
        return new Check(id, Level.RESTRICTED, List.of(versions));
    }

    /** The revision in force at policy version {@code version}, or null when the check is newer. */
    Versioned at(int version) {
        Versioned found = null;
        for (Versioned v : versions) {
            if (v.minimumVersion() <= version) {
                found = v;
            }
        }
        return found;
    }
}
