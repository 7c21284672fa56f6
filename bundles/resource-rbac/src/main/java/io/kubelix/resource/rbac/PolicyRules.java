package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether policy rules grant what another rule grants (kube's validation.Covers), for the
 * bootstrap reconciler: a default role's rule is missing only when some verb on some resource or
 * URL it names is granted by none of the stored rules, wildcards included.
 */
final class PolicyRules {
    private static final String ALL = "*";

    private PolicyRules() {
    }

    /** The rules of {@code expected} that {@code owned} does not fully cover. */
    static List<JsonNode> uncovered(JsonNode owned, JsonNode expected) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode rule : expected) {
            if (!covered(owned, rule)) {
                out.add(rule);
            }
        }
        return out;
    }

    /** Whether every verb on every (group, resource, name) or URL of {@code rule} is granted by {@code owned}. */
    static boolean covered(JsonNode owned, JsonNode rule) {
        for (JsonNode verb : rule.path("verbs")) {
            for (JsonNode url : rule.path("nonResourceURLs")) {
                if (!any(owned, o -> has(o.path("verbs"), verb.asText()) && urlMatches(o.path("nonResourceURLs"), url.asText()))) {
                    return false;
                }
            }
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    List<String> names = RbacValidation.strings(rule.path("resourceNames"));
                    if (!any(owned, o -> has(o.path("verbs"), verb.asText()) && has(o.path("apiGroups"), group.asText())
                            && resourceMatches(o.path("resources"), resource.asText())
                            && namesCovered(o.path("resourceNames"), names))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean any(JsonNode owned, java.util.function.Predicate<JsonNode> test) {
        for (JsonNode o : owned) {
            if (test.test(o)) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asText().equals(ALL) || v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** {@code *}, the resource itself, or {@code *&#47;sub} for a subresource. */
    private static boolean resourceMatches(JsonNode resources, String resource) {
        int slash = resource.indexOf('/');
        for (JsonNode r : resources) {
            String v = r.asText();
            if (v.equals(ALL) || v.equals(resource) || (slash > 0 && v.equals("*" + resource.substring(slash)))) {
                return true;
            }
        }
        return false;
    }

    /** An owned rule without resource names grants every name; otherwise it must list each wanted one. */
    private static boolean namesCovered(JsonNode ownedNames, List<String> wanted) {
        if (ownedNames.isEmpty()) {
            return true;
        }
        if (wanted.isEmpty()) {
            return false;
        }
        List<String> owned = RbacValidation.strings(ownedNames);
        return owned.containsAll(wanted);
    }

    /** {@code *}, the URL itself, or a prefix ending in {@code *}. */
    private static boolean urlMatches(JsonNode urls, String url) {
        for (JsonNode u : urls) {
            String v = u.asText();
            if (v.equals(ALL) || v.equals(url) || (v.endsWith("*") && url.startsWith(v.substring(0, v.length() - 1)))) {
                return true;
            }
        }
        return false;
    }
}
