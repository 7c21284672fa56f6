package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.resource.core.common.FieldChecks;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.resource.core.common.Quantities;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * kube's resourcequotaStrategy with ValidateResourceQuota: {@code spec.hard} names standard quota
 * resources (or qualified names with a {@code /}, such as {@code count/deployments.apps}) with
 * non-negative amounts, whole numbers for object counts; scopes are kube's. A new quota starts
 * without a status, which only the {@code status} subresource writes: the
 * {@link ResourceQuotaController} keeps usage there, and {@link ResourceQuotaAdmission}
 * charges creates to it.
 */
final class ResourceQuotaStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final String KIND = "ResourceQuota";
    static final List<String> SCOPES = List.of("BestEffort", "CrossNamespacePodAffinity", "NotBestEffort",
            "NotTerminating", "PriorityClass", "Terminating");
    /** kube's standardQuotaResources. */
    static final Set<String> STANDARD = Set.of("pods", "services", "replicationcontrollers", "resourcequotas", "secrets",
            "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers", "requests.cpu",
            "requests.memory", "requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
            "limits.ephemeral-storage", "cpu", "memory", "ephemeral-storage", "storage");
    /** Resources counted in whole objects, whose quota must be an integer. */
    static final Set<String> INTEGER = Set.of("pods", "services", "replicationcontrollers", "resourcequotas", "secrets",
            "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers");

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.remove("status");
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        resourceList(obj.path("spec").path("hard"), "spec.hard", errs);
        JsonNode scopes = obj.path("spec").path("scopes");
        for (int i = 0; i < scopes.size(); i++) {
            String scope = scopes.get(i).asText("");
            if (!SCOPES.contains(scope)) {
                errs.add(FieldError.notSupported("spec.scopes", scope, SCOPES));
            }
        }
        JsonNode expressions = obj.path("spec").path("scopeSelector").path("matchExpressions");
        for (int i = 0; i < expressions.size(); i++) {
            String p = "spec.scopeSelector.matchExpressions[" + i + "]";
            String scope = Nodes.text(expressions.get(i), "scopeName");
            if (!SCOPES.contains(scope)) {
                errs.add(FieldError.notSupported(p + ".scopeName", scope, SCOPES));
            }
            errs.addAll(FieldChecks.oneOf(Nodes.text(expressions.get(i), "operator"), p + ".operator",
                    List.of("DoesNotExist", "Exists", "In", "NotIn")));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }

    /** The status subresource: {@code status.hard} and {@code status.used} as valid as {@code spec.hard}. */
    static RESTUpdateStrategy statusStrategy() {
        return new RESTUpdateStrategy() {
            @Override
            public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                StatusStrategies.keepOnlyStatus(obj, old);
            }

            @Override
            public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                List<FieldError> errs = new ArrayList<>();
                resourceList(obj.path("status").path("hard"), "status.hard", errs);
                resourceList(obj.path("status").path("used"), "status.used", errs);
                return errs;
            }
        };
    }

    private static void resourceList(JsonNode list, String path, List<FieldError> errs) {
        list.fields().forEachRemaining(e -> {
            String name = e.getKey();
            String p = path + "[" + name + "]";
            List<String> bad = NameValidators.isQualifiedName(name);
            bad.forEach(m -> errs.add(FieldError.invalid(p, name, m)));
            if (bad.isEmpty() && !name.contains("/") && !STANDARD.contains(name) && !name.startsWith("hugepages-")
                    && !name.startsWith("requests.hugepages-")) {
                errs.add(FieldError.invalid(p, name, "must be a standard resource for quota"));
            }
            BigDecimal q = Quantities.parse(e.getValue());
            if (q != null && q.signum() < 0) {
                errs.add(FieldError.invalid(p, Quantities.text(e.getValue()), "must be greater than or equal to 0"));
            } else if (q != null && INTEGER.contains(name) && q.stripTrailingZeros().scale() > 0) {
                errs.add(FieldError.invalid(p, Quantities.text(e.getValue()), "must be an integer"));
            }
        });
    }
}
