package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * The autoscaling/v2 HorizontalPodAutoscaler strategy (pkg/registry/autoscaling/horizontalpodautoscaler):
 * a new autoscaler starts with a zero status and the main resource keeps the stored one; every write
 * is defaulted ({@link HPADefaults}) and validated ({@link HPAValidation}).
 */
final class HPAStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectNode spec = spec(obj);
        obj.putObject("status").put("desiredReplicas", 0);
        HPADefaults.setDefaults(spec);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        ObjectNode spec = spec(obj);
        StatusStrategies.resetStatus(obj, old);
        HPADefaults.setDefaults(spec);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return HPAValidation.validateSpec(obj.path("spec"));
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return HPAValidation.validateSpec(obj.path("spec"));
    }

    /**
     * The spec, created when missing. The server's typed decoding has already refused a body whose
     * spec, an integer of it or a metric target's quantity has another type, with kube's 400.
     */
    private static ObjectNode spec(ObjectNode obj) {
        return obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
    }
}
