package io.kubelix.examples.widget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * What is particular to widgets, as a kube strategy says it (the generic Store does the rest:
 * uid, timestamps, resourceVersion, generation, metadata validation, admission):
 * <ul>
 *   <li>defaulting: {@code spec.size} is 1 when not given;</li>
 *   <li>validation: {@code spec.size} is an integer of at least 0, reported on field {@code spec.size};</li>
 *   <li>status belongs to the status subresource: dropped on create, kept from the stored object
 *       on update and patch of the widget itself.</li>
 * </ul>
 */
final class WidgetStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final int DEFAULT_SIZE = 1;

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode widget) {
        widget.remove("status");
        applyDefaults(widget);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode widget, ObjectNode old) {
        StatusStrategies.resetStatus(widget, old);
        applyDefaults(widget);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode widget) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode spec = widget.path("spec");
        if (!spec.isMissingNode() && !spec.isObject()) {
            errors.add(FieldError.invalid("spec", spec.toString(), "must be an object"));
            return errors;
        }
        JsonNode size = spec.path("size");
        if (!size.isIntegralNumber()) {
            errors.add(FieldError.invalid("spec.size", size.isTextual() ? size.asText() : size.toString(),
                    "must be an integer"));
        } else if (size.asLong() < 0) {
            errors.add(FieldError.invalid("spec.size", size.asLong(), "must be greater than or equal to 0"));
        }
        return errors;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode widget, ObjectNode old) {
        return validate(ctx, widget);
    }

    /** spec.size defaults to 1; a widget without a spec gets one. */
    private static void applyDefaults(ObjectNode widget) {
        JsonNode spec = widget.path("spec");
        if (spec.isMissingNode() || spec.isNull()) {
            spec = widget.putObject("spec");
        }
        if (spec instanceof ObjectNode s && (!s.has("size") || s.get("size").isNull())) {
            s.put("size", DEFAULT_SIZE);
        }
    }
}
