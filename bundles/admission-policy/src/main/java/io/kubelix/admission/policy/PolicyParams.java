package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericNamespaceLister;
import io.kubelix.api.informer.RESTMapping;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.schema.GroupVersionKind;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The params a binding hands its policy (kube's {@code generic.CollectParams}): none when the
 * policy has no {@code paramKind} or the binding no {@code paramRef} (the policy runs once with
 * {@code params} null), the object named by {@code paramRef.name}, or every object its
 * {@code selector} selects, read through the informer of the param kind's resource, in the
 * request's namespace unless {@code paramRef.namespace} says another.
 */
final class PolicyParams {
    /** How long a param kind's informer may take to list before admission gives up on it, as kube. */
    private static final Duration SYNC_WAIT = Duration.ofSeconds(1);
    /** "No params": the policy runs once, with params null. */
    private static final List<ObjectNode> NONE = Collections.singletonList(null);

    private final SharedInformerFactory informers;

    PolicyParams(SharedInformerFactory informers) {
        this.informers = informers;
    }

    /**
     * @throws CompiledPolicy.PolicyException a configuration error, with kube's message
     */
    List<ObjectNode> collect(JsonNode paramKind, JsonNode paramRef, String requestNamespace)
            throws CompiledPolicy.PolicyException {
        if (!paramKind.isObject() || !paramRef.isObject()) {
            return NONE;
        }
        String apiVersion = paramKind.path("apiVersion").asText("");
        String kind = paramKind.path("kind").asText("");
        int slash = apiVersion.indexOf('/');
        GroupVersionKind gvk = new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash),
                slash < 0 ? apiVersion : apiVersion.substring(slash + 1), kind);
        Optional<RESTMapping> mapping = informers.mappingFor(gvk);
        if (mapping.isEmpty()) {
            throw new CompiledPolicy.PolicyException("paramKind kind `" + kindString(apiVersion, kind) + "` not known");
        }
        SharedIndexInformer informer = informers.forResource(mapping.get().resource());
        try {
            if (!informer.hasSynced() && !informer.waitForSync(SYNC_WAIT)) {
                throw new CompiledPolicy.PolicyException("paramKind kind `" + kindString(apiVersion, kind)
                        + "` not yet synced to use for admission");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompiledPolicy.PolicyException("paramKind kind `" + kindString(apiVersion, kind)
                    + "` not yet synced to use for admission");
        }
        String refNamespace = paramRef.path("namespace").asText("");
        String name = paramRef.path("name").asText("");
        JsonNode selector = paramRef.path("selector");
        List<ObjectNode> found = new ArrayList<>();
        if (mapping.get().namespaced()) {
            String namespace = !refNamespace.isEmpty() ? refNamespace : requestNamespace == null ? "" : requestNamespace;
            if (namespace.isEmpty()) {
                throw new CompiledPolicy.PolicyException(
                        "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources");
            }
            GenericNamespaceLister lister = informer.lister().byNamespace(namespace);
            if (!name.isEmpty()) {
                lister.get(name).ifPresent(found::add);
            } else if (selector.isObject()) {
                lister.list().stream().filter(o -> selects(selector, o)).forEach(found::add);
            } else {
                throw new CompiledPolicy.PolicyException("one of name or selector must be provided");
            }
        } else {
            if (!refNamespace.isEmpty()) {
                throw new CompiledPolicy.PolicyException("paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
            }
            if (!name.isEmpty()) {
                informer.lister().get(name).ifPresent(found::add);
            } else if (selector.isObject()) {
                informer.lister().list().stream().filter(o -> selects(selector, o)).forEach(found::add);
            } else {
                throw new CompiledPolicy.PolicyException("one of name or selector must be provided");
            }
        }
        if (found.isEmpty() && "Deny".equals(paramRef.path("parameterNotFoundAction").asText(""))) {
            throw new CompiledPolicy.PolicyException("no params found for policy binding with `Deny` parameterNotFoundAction");
        }
        return found;
    }

    private static boolean selects(JsonNode selector, ObjectNode o) {
        return LabelSelectors.isEmpty(selector) || LabelSelectors.matches(selector, o.path("metadata").path("labels"));
    }

    /** How kube prints a ParamKind in its messages. */
    private static String kindString(String apiVersion, String kind) {
        return "&ParamKind{APIVersion:" + apiVersion + ",Kind:" + kind + ",}";
    }
}
