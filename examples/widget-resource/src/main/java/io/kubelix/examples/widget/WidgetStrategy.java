package io.kubelix.examples.widget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * What is particular to widgets, as a kube strategy says it (the generic Store does the rest:
 * uid, timestamps, resourceVersion, metadata validation, admission):
 * <ul>
 *   <li>defaulting: {@code spec.size} is 1 when not given;</li>
 *   <li>validation: {@code spec.size} is an integer of at least 0, reported on field {@code spec.size};</li>
 *   <li>status is the server's: dropped on create, kept from the stored object on update;</li>
 *   <li>{@code metadata.generation} is 1 on create and grows by one with every change of the spec.</li>
 * </ul>
 */
final class WidgetStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final int DEFAULT_SIZE = 1;

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode widget) {
        widget.remove("status");
        ((ObjectNode) widget.path("metadata")).put("generation", 1);
        applyDefaults(widget);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode widget, ObjectNode old) {
        widget.remove("status");
        if (old.has("status")) {
            widget.set("status", old.get("status").deepCopy());
        }
        applyDefaults(widget);
        long generation = old.path("metadata").path("generation").asLong(1);
        if (!widget.path("spec").equals(old.path("spec"))) {
            generation++;
        }
        ((ObjectNode) widget.path("metadata")).put("generation", generation);
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
