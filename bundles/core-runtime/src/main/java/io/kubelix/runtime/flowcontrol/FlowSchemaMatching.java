package io.kubelix.runtime.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

/**
 * Whether a FlowSchema's rules match a request, as kube's {@code matchesFlowSchema}: a rule matches
 * when one of its subjects is the user and, for a resource request, one of its resource rules
 * matches, else one of its non-resource rules. {@code *} matches every verb, group, resource,
 * namespace, user, group name and URL; a URL ending in {@code *} is a prefix.
 */
final class FlowSchemaMatching {
    static final String ALL = "*";

    private FlowSchemaMatching() {
    }

    static boolean matches(JsonNode flowSchema, RequestDigest digest) {
        for (JsonNode rule : flowSchema.path("spec").path("rules")) {
            if (matchesRule(rule, digest)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesRule(JsonNode rule, RequestDigest digest) {
        if (!matchesASubject(rule.path("subjects"), digest.user())) {
            return false;
        }
        RequestInfo info = digest.info();
        if (info.resourceRequest()) {
            for (JsonNode r : rule.path("resourceRules")) {
                if (matchesResourceRule(r, info)) {
                    return true;
                }
            }
            return false;
        }
        for (JsonNode r : rule.path("nonResourceRules")) {
            if (contains(r.path("verbs"), info.verb()) && matchesURL(r.path("nonResourceURLs"), info.path())) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesASubject(JsonNode subjects, UserInfo user) {
        for (JsonNode s : subjects) {
            switch (s.path("kind").asText()) {
                case "User" -> {
                    String name = s.path("user").path("name").asText();
                    if (name.equals(ALL) || name.equals(user.name())) {
                        return true;
                    }
                }
                case "Group" -> {
                    String name = s.path("group").path("name").asText();
                    if (name.equals(ALL) || user.groups().contains(name)) {
                        return true;
                    }
                }
                case "ServiceAccount" -> {
                    String namespace = s.path("serviceAccount").path("namespace").asText();
                    String name = s.path("serviceAccount").path("name").asText();
                    String prefix = "system:serviceaccount:" + namespace + ":";
                    if (name.equals(ALL) ? user.name().startsWith(prefix) && user.name().length() > prefix.length()
                            : user.name().equals(prefix + name)) {
                        return true;
                    }
                }
                default -> {
                }
            }
        }
        return false;
    }

    private static boolean matchesResourceRule(JsonNode rule, RequestInfo info) {
        if (!contains(rule.path("verbs"), info.verb()) || !contains(rule.path("apiGroups"), info.apiGroup())) {
            return false;
        }
        String resource = info.subresource().isEmpty() ? info.resource() : info.resource() + "/" + info.subresource();
        if (!contains(rule.path("resources"), resource)) {
            return false;
        }
        if (info.namespace().isEmpty()) {
            return rule.path("clusterScope").asBoolean(false);
        }
        return contains(rule.path("namespaces"), info.namespace());
    }

    /** kube's nonResourceURLsMatches: {@code *}, the path itself, a {@code /x/*} prefix, or a path below {@code /x}. */
    private static boolean matchesURL(JsonNode urls, String path) {
        for (JsonNode u : urls) {
            String url = u.asText();
            if (url.equals(ALL) || url.equals(path)) {
                return true;
            }
            String prefix = url.endsWith(ALL) ? url.substring(0, url.length() - 1) : url + "/";
            if (path.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asText().equals(ALL) || v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}
