package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's rolebinding and clusterrolebinding strategies: rbac/v1 defaults (the roleRef's and the
 * users' and groups' apiGroup), a roleRef to a Role or ClusterRole (a clusterrolebinding to a
 * ClusterRole only) that can never change, and valid subjects.
 */
final class RoleBindingStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final boolean namespaced;
    private final List<String> roleKinds;
    private final EscalationCheck escalation;

    private RoleBindingStrategy(boolean namespaced, List<String> roleKinds, EscalationCheck escalation) {
        this.namespaced = namespaced;
        this.roleKinds = roleKinds;
        this.escalation = escalation;
    }

    /** Validation only, without the escalation check. */
    static RoleBindingStrategy roleBinding() {
        return new RoleBindingStrategy(true, List.of("Role", "ClusterRole"), null);
    }

    /** Validation only, without the escalation check. */
    static RoleBindingStrategy clusterRoleBinding() {
        return new RoleBindingStrategy(false, List.of("ClusterRole"), null);
    }

    /** This strategy, refusing a binding to a role whose rules the writer does not hold (unless they may bind it). */
    RoleBindingStrategy withEscalationCheck(EscalationCheck check) {
        return new RoleBindingStrategy(namespaced, roleKinds, check);
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
        checkEscalation(ctx, obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
        // What the binding grants is its role to its subjects; other changes (labels, finalizers) grant nothing.
        if (!obj.path("roleRef").equals(old.path("roleRef")) || !obj.path("subjects").equals(old.path("subjects"))) {
            checkEscalation(ctx, obj);
        }
    }

    private void checkEscalation(RequestContext ctx, ObjectNode obj) {
        if (escalation != null && obj.path("roleRef").isObject()) {
            escalation.checkBinding(ctx, namespaced ? RbacRESTStorageProvider.ROLEBINDINGS
                            : RbacRESTStorageProvider.CLUSTERROLEBINDINGS, obj.path("metadata").path("name").asText(""),
                    ctx.namespace(), obj.path("roleRef"));
        }
    }

    /** SetDefaults_RoleBinding and SetDefaults_Subject of rbac/v1. */
    static void setDefaults(ObjectNode obj) {
        if (obj.get("roleRef") instanceof ObjectNode ref && ref.path("apiGroup").asText("").isEmpty()) {
            ref.put("apiGroup", RbacValidation.GROUP);
        }
        for (JsonNode s : obj.path("subjects")) {
            if (s instanceof ObjectNode subject && subject.path("apiGroup").asText("").isEmpty()) {
                String kind = subject.path("kind").asText("");
                if (RbacValidation.USER.equals(kind) || RbacValidation.GROUP_KIND.equals(kind)) {
                    subject.put("apiGroup", RbacValidation.GROUP);
                }
            }
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>(RbacValidation.roleRef(obj.path("roleRef"), roleKinds));
        errs.addAll(RbacValidation.subjects(obj.path("subjects"), namespaced));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = validate(ctx, obj);
        if (!obj.path("roleRef").equals(old.path("roleRef"))) {
            errs.add(FieldError.invalid("roleRef", RbacValidation.roleRefGo(obj.path("roleRef")), "cannot change roleRef"));
        }
        return errs;
    }
}
