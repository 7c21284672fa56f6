package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/** The {@code horizontalpodautoscalers/status} strategy: only the status changes, and its replica counts are not negative. */
final class HPAStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return HPAValidation.validateStatus(obj.path("status"));
    }
}
