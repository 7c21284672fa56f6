package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.List;

/**
 * The update strategy of {@code namespaces/status} (kube's namespaceStatusStrategy): the spec
 * keeps its stored value, metadata and status take the client's, and the phase must agree with
 * the deletion state (ValidateNamespaceStatusUpdate).
 */
public final class NamespaceStatusStrategy implements RESTUpdateStrategy {

    @Override
    public boolean allowUnconditionalUpdate() {
        return true;
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        JsonNode spec = old.get("spec");
        if (spec == null) {
            obj.remove("spec");
        } else {
            obj.set("spec", spec.deepCopy());
        }
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        String phase = obj.path("status").path("phase").asText("");
        // Kube's field path names the Go field: status.Phase.
        if (Nodes.isUnset(obj.path("metadata"), "deletionTimestamp")) {
            if (!phase.equals(NamespaceStrategy.PHASE_ACTIVE)) {
                errs.add(FieldError.invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty"));
            }
        } else if (!phase.equals(NamespaceStrategy.PHASE_TERMINATING)) {
            errs.add(FieldError.invalid("status.Phase", phase,
                    "may only be 'Terminating' if `deletionTimestamp` is not empty"));
        }
        return errs;
    }
}
