package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's mutatingadmissionpolicybinding strategy: the matchResources and paramRef defaults, and
 * kube's validation (a policy name, a paramRef with a name or a selector and a
 * parameterNotFoundAction, match resources that match no DELETE). A mutating binding has no
 * validation actions.
 */
final class MutatingAdmissionPolicyBindingStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ValidatingAdmissionPolicyBindingStrategy.setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        ValidatingAdmissionPolicyBindingStrategy.setDefaults(obj);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>(ValidatingAdmissionPolicyBindingStrategy.bindingSpec(spec));
        JsonNode match = spec.get("matchResources");
        if (match != null && !match.isNull()) {
            errs.addAll(MatchResources.validate(match, "spec.matchResources"));
            errs.addAll(MutatingAdmissionPolicyStrategy.mutableOperations(match, "spec.matchResources"));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }
}
