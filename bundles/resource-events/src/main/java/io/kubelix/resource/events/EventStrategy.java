package io.kubelix.resource.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * The event strategy for events.k8s.io/v1 requests (kube's event strategy with the request's
 * version): nothing is defaulted, and the event is validated in its stored core/v1 form with the
 * strict rules of this API ({@link EventValidation}).
 */
final class EventStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final StorageConversion conversion;

    EventStrategy(StorageConversion conversion) {
        this.conversion = conversion;
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return EventValidation.validateCreate(conversion.toStorage(obj));
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return EventValidation.validateUpdate(conversion.toStorage(obj), conversion.toStorage(old));
    }
}
