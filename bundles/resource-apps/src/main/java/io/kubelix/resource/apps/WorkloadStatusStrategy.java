package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The update strategy of a workload's {@code status} subresource (kube's
 * deploymentStatusStrategy and its siblings): only the status changes, and it must pass the
 * kind's status validation; a collision count never goes down.
 */
final class WorkloadStatusStrategy implements RESTUpdateStrategy {
    private final Function<JsonNode, List<FieldError>> validateStatus;
    private final boolean collisionCount;

    WorkloadStatusStrategy(Function<JsonNode, List<FieldError>> validateStatus, boolean collisionCount) {
        this.validateStatus = validateStatus;
        this.collisionCount = collisionCount;
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateStatus.apply(obj.path("status")));
        if (collisionCount) {
            errs.addAll(StatusValidation.collisionCountNotDecremented(obj.path("status"), old.path("status")));
        }
        return errs;
    }
}
