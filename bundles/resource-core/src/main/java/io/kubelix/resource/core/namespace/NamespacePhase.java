package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A namespace's lifecycle as kube's controllers read it from the object. */
public final class NamespacePhase {
    private NamespacePhase() {
    }

    /** Whether the namespace is being deleted: it has a deletion timestamp or the phase {@code Terminating}. */
    public static boolean terminating(ObjectNode namespace) {
        JsonNode ts = namespace.path("metadata").get("deletionTimestamp");
        return ts != null && !ts.isNull()
                || NamespaceStrategy.PHASE_TERMINATING.equals(namespace.path("status").path("phase").asText());
    }
}
