package io.kubelix.admission.podsecurity;

import java.util.ArrayList;
import java.util.List;

/**
 * What one check made of a pod (kube's {@code policy.CheckResult}).
 *
 * @param allowed whether the pod passes
 * @param reason  succinct, always shown ({@code host namespaces}); null when allowed
 * @param detail  the values at fault ({@code hostNetwork=true}), shown for a single pod; may be empty
 */
record CheckResult(boolean allowed, String reason, String detail) {
    static final CheckResult ALLOWED = new CheckResult(true, null, null);

    static CheckResult forbidden(String reason, String detail) {
        return new CheckResult(false, reason, detail);
    }

    /** The forbidden results of several checks together (kube's {@code AggregateCheckResult}). */
    record Aggregate(List<String> reasons, List<String> details) {
        static Aggregate of(List<CheckResult> results) {
            List<String> reasons = new ArrayList<>();
            List<String> details = new ArrayList<>();
            for (CheckResult r : results) {
                if (!r.allowed()) {
                    reasons.add(r.reason() == null || r.reason().isEmpty() ? "unknown forbidden reason" : r.reason());
                    details.add(r.detail() == null ? "" : r.detail());
                }
            }
            return new Aggregate(List.copyOf(reasons), List.copyOf(details));
        }

        boolean allowed() {
            return reasons.isEmpty();
        }

        /** {@code host ports, privileged containers}: what a namespace's pods are told. */
        String forbiddenReason() {
            return String.join(", ", reasons);
        }

        /** {@code host ports (8080, 9090), privileged containers}: what a single pod is told. */
        String forbiddenDetail() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < reasons.size(); i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append(reasons.get(i));
                if (!details.get(i).isEmpty()) {
                    b.append(" (").append(details.get(i)).append(')');
                }
            }
            return b.toString();
        }
    }
}
