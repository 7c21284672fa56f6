package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.time.Clock;
import java.util.List;

/**
 * The {@code status} subresource's strategy (kube's csrStatusStrategy), which signers use: only the
 * status changes, the Approved and Denied conditions keep their stored instances (adding or
 * removing one is refused by validation: that is {@code approval}'s business), conditions get their
 * times, and the certificate may be set once.
 */
final class CSRStatusStrategy implements RESTUpdateStrategy {
    private final Clock clock;

    CSRStatusStrategy(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
        CSRConditions.preserve(obj, old, CSRConditions.APPROVED);
        CSRConditions.preserve(obj, old, CSRConditions.DENIED);
        CSRConditions.populateTimestamps(obj, old, clock.instant());
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return CSRValidation.validateUpdate(obj, old, CSRValidation.Update.STATUS);
    }
}
