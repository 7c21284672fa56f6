package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.RESTDeleteStrategy;
import io.kubelix.resource.core.common.Nodes;

/**
 * How a namespace is deleted (kube's namespace REST Delete): the first delete only marks it, with
 * {@code deletionTimestamp} and {@code status.phase: Terminating}; the namespace controller then
 * removes its content and takes {@code kubernetes} out of {@code spec.finalizers} through
 * {@code namespaces/finalize}, and that update, leaving no finalizer of either kind, removes the
 * namespace. Deleting it again while {@code spec.finalizers} remain is a 409 Conflict, as in
 * kube; a namespace whose deletion has begun and that has no {@code spec.finalizers} left is
 * removed by the next delete.
 */
final class NamespaceDeleteStrategy implements RESTDeleteStrategy {

    @Override
    public boolean hasPendingFinalizers(ObjectNode ns) {
        if (Nodes.isUnset(ns.path("metadata"), "deletionTimestamp")) {
            return true;
        }
        JsonNode finalizers = ns.path("spec").path("finalizers");
        return finalizers.isArray() && !finalizers.isEmpty();
    }

    @Override
    public void prepareForDeletion(ObjectNode ns) {
        // Terminating is set here, and a namespace only becomes Terminating once its deletion began.
        if (NamespaceStrategy.PHASE_TERMINATING.equals(ns.path("status").path("phase").asText())) {
            throw StatusException.conflict(NamespaceSpecs.NAMESPACES, ns.path("metadata").path("name").asText(),
                    "The system is ensuring all content is removed from this namespace.  Upon completion, this "
                            + "namespace will automatically be purged by the system.");
        }
        JsonNode status = ns.get("status");
        ObjectNode statusObject = status instanceof ObjectNode o ? o : ns.putObject("status");
        statusObject.put("phase", NamespaceStrategy.PHASE_TERMINATING);
    }

    /** kube answers a delete of {@code namespaces} with the deleted object (ReturnDeletedObject). */
    @Override
    public boolean returnDeletedObject() {
        return true;
    }
}
