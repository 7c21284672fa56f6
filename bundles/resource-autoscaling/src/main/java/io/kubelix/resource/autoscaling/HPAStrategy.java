package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.support.quantity.InvalidQuantityException;
import io.kubelix.support.quantity.Quantity;

import java.util.List;
import java.util.Locale;

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

    /** The spec, created when missing; one of another JSON type, or integer fields that are not, are a 400 as kube decodes. */
    private static ObjectNode spec(ObjectNode obj) {
        JsonNode spec = obj.get("spec");
        if (spec == null || spec.isNull()) {
            return obj.putObject("spec");
        }
        if (!(spec instanceof ObjectNode s)) {
            throw undecodable(spec, "HorizontalPodAutoscaler.spec", "v2.HorizontalPodAutoscalerSpec");
        }
        for (String f : new String[] {"minReplicas", "maxReplicas"}) {
            JsonNode v = s.get(f);
            if (v != null && !v.isNull() && !(v.isIntegralNumber() && v.canConvertToInt())) {
                throw undecodable(v, "HorizontalPodAutoscalerSpec.spec." + f, "int32");
            }
        }
        requireQuantities(s.path("metrics"));
        return s;
    }

    /**
     * The metric targets' {@code value} and {@code averageValue} are resource.Quantity fields: one
     * that is no quantity is a 400 with the quantity's parse error, as kube's decoder answers it.
     */
    private static void requireQuantities(JsonNode metrics) {
        for (JsonNode metric : metrics) {
            for (JsonNode source : metric) {
                JsonNode target = source.path("target");
                for (String field : new String[] {"value", "averageValue"}) {
                    JsonNode q = target.get(field);
                    if (q == null || q.isNull()) {
                        continue;
                    }
                    try {
                        // As kube's UnmarshalJSON: a string's content, else the JSON text itself.
                        Quantity.parseJson(q.isTextual() ? q.asText() : q.toString());
                    } catch (InvalidQuantityException e) {
                        throw StatusException.badRequest("HorizontalPodAutoscaler in version \"v2\" cannot be handled as a "
                                + "HorizontalPodAutoscaler: " + e.getMessage());
                    }
                }
            }
        }
    }

    private static StatusException undecodable(JsonNode value, String goField, String goType) {
        String jsonType = value.isNumber() ? "number" : value.getNodeType().name().toLowerCase(Locale.ROOT);
        return StatusException.badRequest("HorizontalPodAutoscaler in version \"v2\" cannot be handled as a "
                + "HorizontalPodAutoscaler: json: cannot unmarshal " + jsonType + " into Go struct field " + goField
                + " of type " + goType);
    }
}
