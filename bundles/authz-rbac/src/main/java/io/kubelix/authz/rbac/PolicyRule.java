package io.kubelix.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.request.RequestInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code rbac.authorization.k8s.io/v1} PolicyRule, matched as kube's RBAC authorizer matches
 * it (rbac/v1 helpers {@code VerbMatches}, {@code APIGroupMatches}, {@code ResourceMatches},
 * {@code ResourceNameMatches}, {@code NonResourceURLMatches}): {@code *} matches every verb,
 * group or resource; {@code *}{@code /scale} matches the subresource of every resource; an empty
 * {@code resourceNames} matches every name; a non-resource URL ending in {@code *} matches every
 * path it prefixes. Resource rules never match non-resource requests, and the other way round.
 */
record PolicyRule(List<String> verbs, List<String> apiGroups, List<String> resources, List<String> resourceNames,
                  List<String> nonResourceURLs) {
    static final String ALL = "*";

    PolicyRule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    static PolicyRule of(JsonNode rule) {
        return new PolicyRule(strings(rule.path("verbs")), strings(rule.path("apiGroups")),
                strings(rule.path("resources")), strings(rule.path("resourceNames")),
                strings(rule.path("nonResourceURLs")));
    }

    static List<PolicyRule> listOf(JsonNode rules) {
        List<PolicyRule> out = new ArrayList<>(rules.size());
        rules.forEach(r -> out.add(of(r)));
        return List.copyOf(out);
    }

    /** kube's {@code RuleAllows}: whether this rule grants the request. */
    boolean allows(RequestInfo request) {
        if (!verbMatches(request.verb())) {
            return false;
        }
        if (!request.resourceRequest()) {
            return nonResourceURLMatches(request.path());
        }
        String subresource = request.subresource();
        String combined = subresource.isEmpty() ? request.resource() : request.resource() + "/" + subresource;
        return apiGroupMatches(request.apiGroup()) && resourceMatches(combined, subresource)
                && resourceNameMatches(request.name());
    }

    boolean verbMatches(String verb) {
        return verbs.contains(ALL) || verbs.contains(verb);
    }

    boolean apiGroupMatches(String group) {
        return apiGroups.contains(ALL) || apiGroups.contains(group);
    }

    boolean resourceMatches(String combinedResource, String subresource) {
        for (String r : resources) {
            if (r.equals(ALL) || r.equals(combinedResource)) {
                return true;
            }
            if (!subresource.isEmpty() && r.length() == subresource.length() + 2 && r.startsWith("*/")
                    && r.endsWith(subresource)) {
                return true;
            }
        }
        return false;
    }

    boolean resourceNameMatches(String name) {
        return resourceNames.isEmpty() || resourceNames.contains(name);
    }

    boolean nonResourceURLMatches(String path) {
        for (String url : nonResourceURLs) {
            if (url.equals(ALL) || url.equals(path)) {
                return true;
            }
            if (url.endsWith(ALL) && path.startsWith(url.substring(0, url.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>(array.size());
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
