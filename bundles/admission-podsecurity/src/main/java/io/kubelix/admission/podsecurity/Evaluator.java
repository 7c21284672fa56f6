package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.admission.podsecurity.LevelVersion.Level;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs the checks of a level at a version on a pod (kube's {@code policy.checkRegistry}):
 * privileged checks nothing; baseline runs the baseline checks; restricted runs the restricted
 * checks and the baseline checks none of them overrides at that version. A version newer than the
 * newest revision of any check (and {@code latest}) is that newest version. Checks run, and are
 * reported, baseline first, each level in the order of its ids.
 */
final class Evaluator {
    private final List<Check> ordered;
    private final int maxVersion;

    Evaluator(List<Check> checks) {
        List<Check> sorted = new ArrayList<>(checks);
        sorted.sort(Comparator.comparing((Check c) -> c.level() == Level.RESTRICTED).thenComparing(Check::id));
        this.ordered = List.copyOf(sorted);
        this.maxVersion = checks.stream().mapToInt(c -> c.versions().get(c.versions().size() - 1).minimumVersion())
                .max().orElse(0);
    }

    /** The evaluator of every check kube defines. */
    static Evaluator standard() {
        List<Check> all = new ArrayList<>(BaselineChecks.all());
        all.addAll(RestrictedChecks.all());
        return new Evaluator(all);
    }

    /** The newest policy version any check has a revision for: what {@code latest} means. */
    int maxVersion() {
        return maxVersion;
    }

    List<CheckResult> evaluate(LevelVersion lv, JsonNode metadata, JsonNode spec) {
        if (lv.level() == Level.PRIVILEGED) {
            return List.of();
        }
        int version = Math.min(lv.version(), maxVersion);
        Set<String> overridden = new HashSet<>();
        if (lv.level() == Level.RESTRICTED) {
            for (Check c : ordered) {
                Check.Versioned v = c.level() == Level.RESTRICTED ? c.at(version) : null;
                if (v != null) {
                    overridden.addAll(v.overrides());
                }
            }
        }
        List<CheckResult> results = new ArrayList<>();
        for (Check c : ordered) {
            if (c.level() == Level.RESTRICTED && lv.level() != Level.RESTRICTED || overridden.contains(c.id())) {
                continue;
            }
            Check.Versioned v = c.at(version);
            if (v != null) {
                results.add(v.check().check(metadata, spec));
            }
        }
        return results;
    }

    CheckResult.Aggregate aggregate(LevelVersion lv, JsonNode metadata, JsonNode spec) {
        return CheckResult.Aggregate.of(evaluate(lv, metadata, spec));
    }
}
