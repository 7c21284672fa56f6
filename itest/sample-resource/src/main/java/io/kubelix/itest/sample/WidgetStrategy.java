package io.kubelix.itest.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/** Widgets: {@code spec.size} is optional, and when present an integer of at least 0. */
final class WidgetStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode size = obj.path("spec").path("size");
        if (size.isMissingNode() || size.isNull()) {
            return errors;
        }
        if (!size.isIntegralNumber()) {
            errors.add(FieldError.invalid("spec.size", size.toString(), "must be an integer"));
        } else if (size.asLong() < 0) {
            errors.add(FieldError.invalid("spec.size", size.asLong(), "must be greater than or equal to 0"));
        }
        return errors;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }
}
