package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * kube's flowSchemaStrategy and priorityLevelConfigurationStrategy, which differ only in their defaults
 * and validation: a new object starts with an empty status, the main resource keeps the stored status,
 * every write is defaulted, and an update is validated as a create is.
 */
final class FlowcontrolStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final Consumer<ObjectNode> defaults;
    private final Function<JsonNode, List<FieldError>> validation;

    FlowcontrolStrategy(Consumer<ObjectNode> defaults, Function<JsonNode, List<FieldError>> validation) {
        this.defaults = defaults;
        this.validation = validation;
    }

    static FlowcontrolStrategy flowSchema() {
        return new FlowcontrolStrategy(FlowcontrolDefaults::flowSchema, FlowSchemaValidation::validate);
    }

    static FlowcontrolStrategy priorityLevel() {
        return new FlowcontrolStrategy(FlowcontrolDefaults::priorityLevel, PriorityLevelValidation::validate);
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.putObject("status");
        defaults.accept(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
        defaults.accept(obj);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validation.apply(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validation.apply(obj);
    }
}
