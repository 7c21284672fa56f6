package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's role and clusterrole strategies: every rule needs verbs and either API groups and
 * resources or, in a clusterrole only, non-resource URLs; a clusterrole's aggregationRule needs a
 * selector. The aggregation controller is not run: an aggregated clusterrole keeps the rules its
 * writer gives it. Escalation checks need an authorizer and are not made.
 */
final class RoleStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final boolean namespaced;

    private RoleStrategy(boolean namespaced) {
        this.namespaced = namespaced;
    }

    static RoleStrategy role() {
        return new RoleStrategy(true);
    }

    static RoleStrategy clusterRole() {
        return new RoleStrategy(false);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>(RbacValidation.rules(obj.path("rules"), namespaced));
        if (!namespaced) {
            errs.addAll(RbacValidation.aggregationRule(obj.get("aggregationRule")));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }
}
