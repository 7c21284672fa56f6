package io.kubelix.apiextensions;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.validation.CrdValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * kube's customresourcedefinition statusStrategy: a write through {@code status} changes the status
 * and, as kube's keeps every metadata field but labels, annotations, owner references and
 * generation, the finalizers (the finalizing controller removes its own this way).
 */
final class CrdStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        com.fasterxml.jackson.databind.JsonNode finalizers = obj.path("metadata").get("finalizers");
        StatusStrategies.keepOnlyStatus(obj, old);
        ObjectNode meta = (ObjectNode) obj.get("metadata");
        if (finalizers == null) {
            meta.remove("finalizers");
        } else {
            meta.set("finalizers", finalizers);
        }
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return CrdValidation.validateStatus(obj);
    }
}
