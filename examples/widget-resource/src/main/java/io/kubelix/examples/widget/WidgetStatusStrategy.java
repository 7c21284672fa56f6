package io.kubelix.examples.widget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code widgets/status} subresource: an update or patch there changes the status and
 * nothing else (what a controller reporting on a widget does), and {@code status.ready}, when
 * given, is a boolean.
 */
final class WidgetStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode widget, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(widget, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode widget, ObjectNode old) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode ready = widget.path("status").path("ready");
        if (!ready.isMissingNode() && !ready.isNull() && !ready.isBoolean()) {
            errors.add(FieldError.invalid("status.ready", ready.asText(), "must be a boolean"));
        }
        return errors;
    }
}
