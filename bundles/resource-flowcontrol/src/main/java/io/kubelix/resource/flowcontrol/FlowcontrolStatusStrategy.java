package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * The update strategy of both kinds' {@code status} subresource (kube's flowSchemaStatusStrategy and
 * priorityLevelConfigurationStatusStrategy): only the status changes, and its conditions must be valid.
 */
final class FlowcontrolStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return StatusValidation.conditions(obj.path("status"));
    }
}
