package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.authz.SubjectRules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code validation.Covers}: whether the rules a user holds cover every rule they try to
 * grant. Each rule to grant is broken down to one verb on one resource of one group (and one
 * name, when it names some), or one verb on one non-resource URL; each of those must be allowed
 * by a held rule. A held {@code *} covers anything, a held {@code deployments/*} every
 * subresource of deployments, a held {@code /apis/*} every URL under {@code /apis/}.
 */
final class RuleCoverage {

    private RuleCoverage() {
    }

    /**
     * The rules of {@code toGrant} that {@code held} does not cover, in kube's compact form
     * (verbs of the same group and resource together), or an empty list.
     */
    static List<String> missing(SubjectRules held, JsonNode toGrant) {
        // group, resource (and name) -> missing verbs, so that the description compacts as kube's CompactRules.
        Map<List<String>, List<String>> missingResources = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (JsonNode rule : toGrant) {
            List<String> verbs = strings(rule.path("verbs"));
            List<String> names = strings(rule.path("resourceNames"));
            for (String group : strings(rule.path("apiGroups"))) {
                for (String resource : strings(rule.path("resources"))) {
                    for (String verb : verbs) {
                        if (names.isEmpty()) {
                            if (!covered(held, verb, group, resource, null)) {
                                missingResources.computeIfAbsent(List.of(group, resource), k -> new ArrayList<>())
                                        .add(verb);
                            }
                        } else {
                            for (String name : names) {
                                if (!covered(held, verb, group, resource, name)) {
                                    missing.add("{APIGroups:" + EscalationCheck.quoted(List.of(group)) + ", Resources:"
                                            + EscalationCheck.quoted(List.of(resource)) + ", ResourceNames:"
                                            + EscalationCheck.quoted(List.of(name)) + ", Verbs:"
                                            + EscalationCheck.quoted(List.of(verb)) + "}");
                                }
                            }
                        }
                    }
                }
            }
            for (String url : strings(rule.path("nonResourceURLs"))) {
                for (String verb : verbs) {
                    if (!coveredURL(held, verb, url)) {
                        missing.add("{NonResourceURLs:" + EscalationCheck.quoted(List.of(url)) + ", Verbs:"
                                + EscalationCheck.quoted(List.of(verb)) + "}");
                    }
                }
            }
        }
        missingResources.forEach((key, verbs) -> missing.add("{APIGroups:" + EscalationCheck.quoted(List.of(key.get(0)))
                + ", Resources:" + EscalationCheck.quoted(List.of(key.get(1))) + ", Verbs:"
                + EscalationCheck.quoted(verbs) + "}"));
        return missing;
    }

    private static boolean covered(SubjectRules held, String verb, String group, String resource, String name) {
        for (SubjectRules.ResourceRule r : held.resourceRules()) {
            if (covers(r.verbs(), verb) && covers(r.apiGroups(), group) && resourceCovers(r.resources(), resource)
                    && (r.resourceNames().isEmpty() || (name != null && r.resourceNames().contains(name)))) {
                return true;
            }
        }
        return false;
    }

    private static boolean coveredURL(SubjectRules held, String verb, String url) {
        for (SubjectRules.NonResourceRule r : held.nonResourceRules()) {
            if (!covers(r.verbs(), verb)) {
                continue;
            }
            for (String owner : r.nonResourceURLs()) {
                if (owner.equals(url) || (owner.endsWith("*") && url.startsWith(owner.substring(0, owner.length() - 1)))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean covers(List<String> held, String value) {
        return held.contains("*") || held.contains(value);
    }

    /** kube's resourceCoversAll for one resource: {@code *}, the resource itself, or {@code <resource>/*}. */
    private static boolean resourceCovers(List<String> held, String resource) {
        if (held.contains("*") || held.contains(resource)) {
            return true;
        }
        int slash = resource.indexOf('/');
        return slash > 0 && held.contains(resource.substring(0, slash) + "/*");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>(array.size());
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
