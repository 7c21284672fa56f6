package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A quota's scopes as kube reads them (getScopeSelectorsFromQuota and podMatchesScopeFunc): each
 * of {@code spec.scopes} is an {@code Exists} selector, joined by {@code spec.scopeSelector}'s
 * expressions; a pod is within the quota when it matches all of them.
 */
final class QuotaScopes {
    private QuotaScopes() {
    }

    /** One scope and how the pod's value must relate to it ({@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}). */
    record Selector(String scopeName, String operator, List<String> values) {

        /** As kube's errors print a requirement (Go's {@code %v}): {@code {PriorityClass In [gold silver]}}. */
        @Override
        public String toString() {
            return "{" + scopeName + " " + operator + " [" + String.join(" ", values) + "]}";
        }

        boolean matches(ObjectNode pod) {
            JsonNode spec = pod.path("spec");
            return switch (scopeName) {
                case "Terminating" -> terminating(spec);
                case "NotTerminating" -> !terminating(spec);
                case "BestEffort" -> PodEvaluator.bestEffort(pod);
                case "NotBestEffort" -> !PodEvaluator.bestEffort(pod);
                case "PriorityClass" -> priorityClassMatches(spec.path("priorityClassName").asText(""));
                case "CrossNamespacePodAffinity" -> crossNamespaceAffinity(spec.path("affinity"));
                default -> false;
            };
        }

        /** kube's podMatchesSelector: a label selector over {@code PriorityClass}, absent when the pod names none. */
        private boolean priorityClassMatches(String priorityClass) {
            boolean present = !priorityClass.isEmpty();
            return switch (operator) {
                case "Exists" -> present;
                case "DoesNotExist" -> !present;
                case "In" -> present && values.contains(priorityClass);
                case "NotIn" -> !present || !values.contains(priorityClass);
                default -> false;
            };
        }
    }

    /** The quota's selectors, {@code spec.scopes} first. */
    static List<Selector> of(ObjectNode quota) {
        List<Selector> selectors = new ArrayList<>();
        for (JsonNode scope : quota.path("spec").path("scopes")) {
            selectors.add(new Selector(scope.asText(), "Exists", List.of()));
        }
        for (JsonNode e : quota.path("spec").path("scopeSelector").path("matchExpressions")) {
            selectors.add(selector(e));
        }
        return selectors;
    }

    /** A {@code ScopedResourceSelectorRequirement}. */
    static Selector selector(JsonNode requirement) {
        List<String> values = new ArrayList<>();
        requirement.path("values").forEach(v -> values.add(v.asText()));
        return new Selector(requirement.path("scopeName").asText(), requirement.path("operator").asText(),
                List.copyOf(values));
    }

    /** kube's isTerminating: a pod with an active deadline. */
    private static boolean terminating(JsonNode spec) {
        JsonNode deadline = spec.get("activeDeadlineSeconds");
        return deadline != null && deadline.isNumber() && deadline.asLong() >= 0;
    }

    /** kube's usesCrossNamespacePodAffinity: an affinity term naming namespaces or a namespace selector. */
    private static boolean crossNamespaceAffinity(JsonNode affinity) {
        for (String kind : new String[] {"podAffinity", "podAntiAffinity"}) {
            JsonNode a = affinity.path(kind);
            for (JsonNode term : a.path("requiredDuringSchedulingIgnoredDuringExecution")) {
                if (crossNamespace(term)) {
                    return true;
                }
            }
            for (JsonNode weighted : a.path("preferredDuringSchedulingIgnoredDuringExecution")) {
                if (crossNamespace(weighted.path("podAffinityTerm"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean crossNamespace(JsonNode term) {
        return !term.path("namespaces").isEmpty() || term.hasNonNull("namespaceSelector");
    }

    /**
     * kube's QuotaV1Pod: whether a pod still holds its compute resources: it has not succeeded or
     * failed, nor outstayed its deletion grace period (a pod stuck terminating on a lost node).
     */
    static boolean live(ObjectNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        if (phase.equals("Succeeded") || phase.equals("Failed")) {
            return false;
        }
        JsonNode deleted = pod.path("metadata").get("deletionTimestamp");
        JsonNode grace = pod.path("metadata").get("deletionGracePeriodSeconds");
        if (deleted != null && deleted.isTextual() && grace != null && grace.isNumber()) {
            try {
                return !Instant.now().isAfter(Instant.parse(deleted.asText()).plusSeconds(grace.asLong()));
            } catch (DateTimeParseException e) {
                return true;
            }
        }
        return true;
    }
}
