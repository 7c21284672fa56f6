package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.RESTDeleteStrategy;

/**
 * How a namespace is deleted (kube's namespace REST Delete): the first delete only marks it, with
 * {@code deletionTimestamp} and {@code status.phase: Terminating}; the namespace controller then
 * removes its content and takes {@code kubernetes} out of {@code spec.finalizers} through
 * {@code namespaces/finalize}, and that update, leaving no finalizer of either kind, removes the
 * namespace. A namespace whose deletion has begun and that has no {@code spec.finalizers} left
 * is removed by the next delete.
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
        JsonNode status = ns.get("status");
        ObjectNode statusObject = status instanceof ObjectNode o ? o : ns.putObject("status");
        statusObject.put("phase", NamespaceStrategy.PHASE_TERMINATING);
    }
}
