package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.schema.GroupResource;

import java.util.Set;
import java.util.function.Function;

/**
 * Whether a webhook is called for a request (kube's {@code Webhook.ShouldCallHook}): its
 * {@code namespaceSelector} and {@code objectSelector} select the request, and one of its rules
 * matches the operation, API group, version, resource (with {@code resource/subresource},
 * {@code resource/*}, {@code *} and {@code * /*} forms) and scope. Writes of the objects that
 * configure admission are never sent to webhooks, so that no webhook can lock itself in.
 */
final class WebhookMatcher {
    /** kube's {@code IsExemptAdmissionConfigurationResource}. */
    private static final Set<String> ADMISSION_CONFIGURATION = Set.of("validatingwebhookconfigurations",
            "mutatingwebhookconfigurations", "validatingadmissionpolicies", "validatingadmissionpolicybindings",
            "mutatingadmissionpolicies", "mutatingadmissionpolicybindings");
    private static final GroupResource NAMESPACES = GroupResource.of("", "namespaces");

    /** Reads a namespace's labels; null when there is no such namespace. */
    private final Function<String, ObjectNode> namespaces;

    WebhookMatcher(Function<String, ObjectNode> namespaces) {
        this.namespaces = namespaces;
    }

    static boolean exempt(AdmissionAttributes a) {
        return "admissionregistration.k8s.io".equals(a.resource().group())
                && ADMISSION_CONFIGURATION.contains(a.resource().resource());
    }

    /**
     * Whether {@code hook} is called for the request.
     *
     * @throws StatusException 404 when the request's namespace does not exist and the webhook has a
     *                         namespace selector, as kube answers
     */
    boolean shouldCall(Webhook hook, AdmissionAttributes a) {
        boolean rule = false;
        for (JsonNode r : hook.rules()) {
            if (matches(r, a)) {
                rule = true;
                break;
            }
        }
        return rule && objectSelected(hook.objectSelector(), a) && namespaceSelected(hook.namespaceSelector(), a);
    }

    /** rules.Matcher: scope, operations, API groups, versions and resources. */
    static boolean matches(JsonNode rule, AdmissionAttributes a) {
        return scope(rule.path("scope").asText("*"), a)
                && anyOrWildcard(rule.path("operations"), a.operation().name())
                && anyOrWildcard(rule.path("apiGroups"), a.resource().group())
                && anyOrWildcard(rule.path("apiVersions"), a.resource().version())
                && resource(rule.path("resources"), a.resource().resource(), a.subresource());
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

    private static boolean isNamespace(AdmissionAttributes a) {
        return a.resource().group().isEmpty() && "namespaces".equals(a.resource().resource());
    }
}
