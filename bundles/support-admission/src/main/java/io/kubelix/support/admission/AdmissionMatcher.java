package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.schema.GroupResource;

import java.util.Set;
import java.util.function.Function;

/**
 * Which requests an admission configuration applies to, as kube matches webhooks
 * ({@code Webhook.ShouldCallHook}) and admission policies ({@code matching.Matcher}): a
 * {@code namespaceSelector} and an {@code objectSelector} that select the request, and rules that
 * match its operation, API group, version, resource (with {@code resource/subresource},
 * {@code resource/*}, {@code *} and {@code * /*} forms), scope and, for policies, resource names.
 * Writes of the objects that configure admission are never matched, so that no configuration
 * can lock itself in.
 */
public final class AdmissionMatcher {
    /** kube's {@code IsExemptAdmissionConfigurationResource}. */
    private static final Set<String> ADMISSION_CONFIGURATION = Set.of("validatingwebhookconfigurations",
            "mutatingwebhookconfigurations", "validatingadmissionpolicies", "validatingadmissionpolicybindings",
            "mutatingadmissionpolicies", "mutatingadmissionpolicybindings");
    private static final GroupResource NAMESPACES = GroupResource.of("", "namespaces");

    /** Reads a namespace; null when there is no such namespace. */
    private final Function<String, ObjectNode> namespaces;

    public AdmissionMatcher(Function<String, ObjectNode> namespaces) {
        this.namespaces = namespaces;
    }

    /** Whether the request writes an object that configures admission, which nothing may intercept. */
    public static boolean exempt(AdmissionAttributes a) {
        return "admissionregistration.k8s.io".equals(a.resource().group())
                && ADMISSION_CONFIGURATION.contains(a.resource().resource());
    }

    /**
     * Whether one of {@code rules} matches, and the selectors select the request.
     *
     * @throws StatusException 404 when the request's namespace does not exist and there is a
     *                         namespace selector, as kube answers
     */
    public boolean matches(JsonNode rules, JsonNode namespaceSelector, JsonNode objectSelector, AdmissionAttributes a) {
        return anyRule(rules, a) && objectSelected(objectSelector, a) && namespaceSelected(namespaceSelector, a);
    }

    /**
     * A policy's or binding's {@code matchResources}: selected by its selectors, matched by one of
     * its {@code resourceRules} and by none of its {@code excludeResourceRules}. Without
     * {@code resourceRules} every resource matches (a binding that narrows nothing).
     */
    public boolean matchesResources(JsonNode matchResources, AdmissionAttributes a) {
        if (matchResources == null || matchResources.isMissingNode() || matchResources.isNull()) {
            return true;
        }
        JsonNode rules = matchResources.path("resourceRules");
        if (rules.isArray() && !rules.isEmpty() && !anyRule(rules, a)) {
            return false;
        }
        if (anyRule(matchResources.path("excludeResourceRules"), a)) {
            return false;
        }
        return objectSelected(matchResources.path("objectSelector"), a)
                && namespaceSelected(matchResources.path("namespaceSelector"), a);
    }

    private static boolean anyRule(JsonNode rules, AdmissionAttributes a) {
        for (JsonNode r : rules) {
            if (matchesRule(r, a)) {
                return true;
            }
        }
        return false;
    }

    /** rules.Matcher: scope, operations, API groups, versions, resources and (for policies) resource names. */
    public static boolean matchesRule(JsonNode rule, AdmissionAttributes a) {
        return scope(rule.path("scope").asText("*"), a)
                && anyOrWildcard(rule.path("operations"), a.operation().name())
                && anyOrWildcard(rule.path("apiGroups"), a.resource().group())
                && anyOrWildcard(rule.path("apiVersions"), a.resource().version())
                && resource(rule.path("resources"), a.resource().resource(), a.subresource())
                && resourceName(rule.path("resourceNames"), a.name());
    }

    private static boolean scope(String scope, AdmissionAttributes a) {
        boolean namespaceObject = isNamespace(a);
        boolean clusterScoped = namespaceObject || a.namespace() == null || a.namespace().isEmpty();
        return switch (scope) {
            case "Namespaced" -> !clusterScoped;
            case "Cluster" -> clusterScoped;
            default -> true;
        };
    }

    private static boolean anyOrWildcard(JsonNode items, String requested) {
        for (JsonNode item : items) {
            String s = item.asText();
            if (s.equals("*") || s.equals(requested)) {
                return true;
            }
        }
        return false;
    }

    private static boolean resource(JsonNode resources, String resource, String subresource) {
        String sub = subresource == null ? "" : subresource;
        for (JsonNode item : resources) {
            String s = item.asText();
            int slash = s.indexOf('/');
            String res = slash < 0 ? s : s.substring(0, slash);
            String rsub = slash < 0 ? "" : s.substring(slash + 1);
            if ((res.equals("*") || res.equals(resource)) && (rsub.equals("*") || rsub.equals(sub))) {
                return true;
            }
        }
        return false;
    }

    /** No names: every object; otherwise the request's object must be one of them. */
    private static boolean resourceName(JsonNode names, String name) {
        if (!names.isArray() || names.isEmpty()) {
            return true;
        }
        for (JsonNode n : names) {
            if (n.asText().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** objectSelector: the new object's or the old object's labels. */
    private static boolean objectSelected(JsonNode selector, AdmissionAttributes a) {
        if (selector.isMissingNode() || selector.isNull() || LabelSelectors.isEmpty(selector)) {
            return true;
        }
        return labelled(selector, a.object()) || labelled(selector, a.oldObject());
    }

    private static boolean labelled(JsonNode selector, ObjectNode obj) {
        return obj != null && LabelSelectors.matches(selector, obj.path("metadata").path("labels"));
    }

    /**
     * namespaceSelector: the labels of the request's namespace; a cluster-scoped object other than
     * a namespace is always selected; a namespace written is judged by its own labels.
     */
    private boolean namespaceSelected(JsonNode selector, AdmissionAttributes a) {
        if (selector.isMissingNode() || selector.isNull() || LabelSelectors.isEmpty(selector)) {
            return true;
        }
        if (isNamespace(a)) {
            if (a.subresource().isEmpty() && a.object() != null) {
                return LabelSelectors.matches(selector, a.object().path("metadata").path("labels"));
            }
            ObjectNode ns = a.oldObject() != null ? a.oldObject() : namespaces.apply(a.name());
            return ns != null && LabelSelectors.matches(selector, ns.path("metadata").path("labels"));
        }
        if (a.namespace() == null || a.namespace().isEmpty()) {
            return true;
        }
        ObjectNode ns = namespaces.apply(a.namespace());
        if (ns == null) {
            throw StatusException.notFound(NAMESPACES, a.namespace());
        }
        return LabelSelectors.matches(selector, ns.path("metadata").path("labels"));
    }

    /** Whether the request is about a namespace itself. */
    public static boolean isNamespace(AdmissionAttributes a) {
        return a.resource().group().isEmpty() && "namespaces".equals(a.resource().resource());
    }
}
