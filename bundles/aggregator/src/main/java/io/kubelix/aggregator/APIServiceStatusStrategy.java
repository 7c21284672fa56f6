package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code status} subresource of apiservices: only the status changes, and each condition's
 * status is {@code True}, {@code False} or {@code Unknown} (ValidateAPIServiceStatus).
 */
final class APIServiceStatusStrategy implements RESTUpdateStrategy {
    static final List<String> CONDITION_STATUSES = List.of("True", "False", "Unknown");

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        int i = 0;
        for (JsonNode c : obj.path("status").path("conditions")) {
            String status = c.path("status").asText("");
            if (!CONDITION_STATUSES.contains(status)) {
                errs.add(FieldError.notSupported("status.conditions[" + i + "].status", status, CONDITION_STATUSES));
            }
            i++;
        }
        return errs;
    }
}
