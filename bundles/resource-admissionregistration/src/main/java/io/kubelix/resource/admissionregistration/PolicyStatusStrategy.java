package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * The {@code status} subresource of validatingadmissionpolicies: only the status changes, as the
 * type-checking controller ({@link PolicyTypeCheckingController}) or another writer gives it.
 */
final class PolicyStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return List.of();
    }
}
