package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;

import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Which requests an admission configuration applies to, as kube matches webhooks
 * ({@code Webhook.ShouldCallHook}) and admission policies ({@code matching.Matcher}): a
 * {@code namespaceSelector} and an {@code objectSelector} that select the request, and rules that
 * match its operation, API group, version, resource (with {@code resource/subresource},
 * {@code resource/*}, {@code *} and {@code * /*} forms), scope and, for policies, resource names.
 * With {@code matchPolicy: Equivalent} a request the rules do not name matches through an
 * equivalent resource they do (another version of it), and the match says which, so that the
 * configuration sees the object as that resource serves it. Writes of the objects that configure
 * admission are never matched, so that no configuration can lock itself in.
 */
public final class AdmissionMatcher {
    /** kube's {@code IsExemptAdmissionConfigurationResource}. */
    private static final Set<String> ADMISSION_CONFIGURATION = Set.of("validatingwebhookconfigurations",
            "mutatingwebhookconfigurations", "validatingadmissionpolicies", "validatingadmissionpolicybindings",
            "mutatingadmissionpolicies", "mutatingadmissionpolicybindings");
    private static final GroupResource NAMESPACES = GroupResource.of("", "namespaces");

    /** Reads a namespace; null when there is no such namespace. */
    private final Function<String, ObjectNode> namespaces;
    /** The server's equivalent resources; null when there are none (tests). */
    private final EquivalentResourceMapper equivalents;

    /**
     * The resource and kind a configuration matched the request as: the request's own, or an
     * equivalent resource's with {@code matchPolicy: Equivalent}.
     */
    public record Match(GroupVersionResource resource, GroupVersionKind kind) {
        /** Whether this is the request's own resource, so its objects need no conversion. */
        public boolean isRequested(AdmissionAttributes a) {
            return resource.equals(a.resource()) && kind.equals(a.kind());
        }
    }

    /**
     * kube's {@code unable to convert to <resource>: unknown kind}: a rule matched an equivalent
     * resource that serves no kind. A webhook's request fails with it as this 500, as kube's
     * {@code ShouldCallHook} answers; a policy treats it as a configuration error, which its
     * {@code failurePolicy} decides.
     */
    public static final class UnknownKind extends StatusException {
        private static final long serialVersionUID = 1L;
        private final String error;

        UnknownKind(GroupVersionResource resource) {
            super(StatusReason.INTERNAL_ERROR, 500, "Internal error occurred: " + message(resource), null, null);
            this.error = message(resource);
        }

        private static String message(GroupVersionResource resource) {
            return "unable to convert to " + resource.group() + "/" + resource.version() + ", Resource="
                    + resource.resource() + ": unknown kind";
        }

        /** The error as kube's policy dispatcher quotes it, without the 500's prefix. */
        public String error() {
            return error;
        }
    }

    public AdmissionMatcher(Function<String, ObjectNode> namespaces) {
        this(namespaces, null);
    }

    public AdmissionMatcher(Function<String, ObjectNode> namespaces, EquivalentResourceMapper equivalents) {
        this.namespaces = namespaces;
        this.equivalents = equivalents;
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
        return match(rules, false, namespaceSelector, objectSelector, a) != null;
    }

    /**
     * A webhook's match (kube's {@code ShouldCallHook} without its conditions): the first rule that
     * matches the request, else, with {@code equivalent}, the first rule (in order) that matches an
     * equivalent resource; and the selectors must select the request. Null when it does not match.
     *
     * @throws StatusException 404 when the request's namespace does not exist and there is a
     *                         namespace selector; {@link UnknownKind} when an equivalent resource has no kind
     */
    public Match match(JsonNode rules, boolean equivalent, JsonNode namespaceSelector, JsonNode objectSelector,
                       AdmissionAttributes a) {
        Match m = null;
        for (JsonNode r : rules) {
            if (matchesRule(r, a, a.resource())) {
                m = new Match(a.resource(), a.kind());
                break;
            }
        }
        if (m == null && equivalent) {
            m = equivalentMatch(rules, a, false);
        }
        if (m == null || !objectSelected(objectSelector, a) || !namespaceSelected(namespaceSelector, a)) {
            return null;
        }
        return m;
    }

    /**
     * A policy's or binding's {@code matchResources}: selected by its selectors, matched by one of
     * its {@code resourceRules} and by none of its {@code excludeResourceRules}. Without
     * {@code resourceRules} every resource matches (a binding that narrows nothing).
     */
    public boolean matchesResources(JsonNode matchResources, AdmissionAttributes a) {
        return matchResources(matchResources, a) != null;
    }

    /**
     * kube's policy {@code Matcher.Matches}: {@link #matchesResources} with the resource and kind
     * matched, which {@code matchPolicy: Equivalent} (for the exclusions too) may find through an
     * equivalent resource. Null when it does not match.
     *
     * @throws UnknownKind when an equivalent resource a rule matches has no kind
     */
    public Match matchResources(JsonNode matchResources, AdmissionAttributes a) {
        Match requested = new Match(a.resource(), a.kind());
        if (matchResources == null || matchResources.isMissingNode() || matchResources.isNull()) {
            return requested;
        }
        boolean equivalent = "Equivalent".equals(matchResources.path("matchPolicy").asText());
        if (namedRules(matchResources.path("excludeResourceRules"), equivalent, a) != null) {
            return null;
        }
        JsonNode rules = matchResources.path("resourceRules");
        Match m = rules.isArray() && !rules.isEmpty() ? namedRules(rules, equivalent, a) : requested;
        if (m == null || !objectSelected(matchResources.path("objectSelector"), a)
                || !namespaceSelected(matchResources.path("namespaceSelector"), a)) {
            return null;
        }
        return m;
    }

    /** kube's {@code matchesResourceRules}: the request's resource first, then its equivalents. */
    private Match namedRules(JsonNode rules, boolean equivalent, AdmissionAttributes a) {
        for (JsonNode r : rules) {
            if (matchesRule(r, a, a.resource()) && resourceName(r.path("resourceNames"), a.name())) {
                return new Match(a.resource(), a.kind());
            }
        }
        return equivalent ? equivalentMatch(rules, a, true) : null;
    }

    /** The first rule, in order, that matches one of the request's equivalent resources other than its own. */
    private Match equivalentMatch(JsonNode rules, AdmissionAttributes a, boolean names) {
        if (equivalents == null || !rules.isArray() || rules.isEmpty()) {
            return null;
        }
        List<GroupVersionResource> others = equivalents.equivalentResourcesFor(a.resource(), a.subresource());
        for (JsonNode r : rules) {
            for (GroupVersionResource other : others) {
                if (other.equals(a.resource()) || !matchesRule(r, a, other)) {
                    continue;
                }
                GroupVersionKind kind = equivalents.kindFor(other, a.subresource());
                if (kind == null) {
                    throw new UnknownKind(other);
                }
                if (!names || resourceName(r.path("resourceNames"), a.name())) {
                    return new Match(other, kind);
                }
            }
        }
        return null;
    }

    /** rules.Matcher: scope, operations, API groups, versions, resources and (for policies) resource names. */
    public static boolean matchesRule(JsonNode rule, AdmissionAttributes a) {
        return matchesRule(rule, a, a.resource()) && resourceName(rule.path("resourceNames"), a.name());
    }

    /** rules.Matcher for the request as if made to {@code resource}. */
    private static boolean matchesRule(JsonNode rule, AdmissionAttributes a, GroupVersionResource resource) {
        return scope(rule.path("scope").asText("*"), a)
                && anyOrWildcard(rule.path("operations"), a.operation().name())
                && anyOrWildcard(rule.path("apiGroups"), resource.group())
                && anyOrWildcard(rule.path("apiVersions"), resource.version())
                && resource(rule.path("resources"), resource.resource(), a.subresource());
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
