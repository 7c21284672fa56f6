package io.kubelix.resource.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's lease strategy and ValidateLeaseSpec (pkg/apis/coordination/validation): a lease lasts a
 * positive number of seconds and has a non-negative transition count; the same rules hold on
 * update, when anything may change.
 */
final class LeaseStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> STRATEGIES = List.of("OldestEmulationVersion");

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        JsonNode duration = spec.get("leaseDurationSeconds");
        if (duration != null && duration.isNumber() && duration.asLong() <= 0) {
            errs.add(FieldError.invalid("spec.leaseDurationSeconds", duration.asLong(), "must be greater than 0"));
        }
        JsonNode transitions = spec.get("leaseTransitions");
        if (transitions != null && transitions.isNumber() && transitions.asLong() < 0) {
            errs.add(FieldError.invalid("spec.leaseTransitions", transitions.asLong(),
                    "must be greater than or equal to 0"));
        }
        JsonNode strategy = spec.get("strategy");
        if (strategy != null && strategy.isTextual() && !STRATEGIES.contains(strategy.asText())) {
            errs.add(FieldError.notSupported("spec.strategy", strategy.asText(), STRATEGIES));
        }
        JsonNode preferred = spec.get("preferredHolder");
        if (preferred != null && preferred.isTextual() && !preferred.asText().isEmpty()
                && (strategy == null || strategy.isNull() || strategy.asText().isEmpty())) {
            errs.add(FieldError.forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }
}
