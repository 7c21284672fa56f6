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
 * writer gives it. With an {@link EscalationCheck}, a writer may only give rules they hold (or
 * may {@code escalate}).
 */
final class RoleStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final boolean namespaced;
    private final EscalationCheck escalation;

    private RoleStrategy(boolean namespaced, EscalationCheck escalation) {
        this.namespaced = namespaced;
        this.escalation = escalation;
    }

    /** Validation only, without the escalation check. */
    static RoleStrategy role() {
        return new RoleStrategy(true, null);
    }

    /** Validation only, without the escalation check. */
    static RoleStrategy clusterRole() {
        return new RoleStrategy(false, null);
    }

    /** This strategy, refusing rules the writer does not hold. */
    RoleStrategy withEscalationCheck(EscalationCheck check) {
        return new RoleStrategy(namespaced, check);
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        checkEscalation(ctx, obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        if (!obj.path("rules").equals(old.path("rules"))) {
            checkEscalation(ctx, obj);
        }
    }

    private void checkEscalation(RequestContext ctx, ObjectNode obj) {
        if (escalation != null) {
            escalation.checkRole(ctx, namespaced ? RbacRESTStorageProvider.ROLES : RbacRESTStorageProvider.CLUSTERROLES,
                    obj.path("metadata").path("name").asText(""), ctx.namespace(), obj.path("rules"));
        }
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
