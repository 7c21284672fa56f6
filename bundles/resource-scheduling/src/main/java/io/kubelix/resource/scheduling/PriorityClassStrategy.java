package io.kubelix.resource.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The PriorityClass strategy (pkg/registry/scheduling/priorityclass and the validation of
 * pkg/apis/scheduling): {@code preemptionPolicy} defaults to {@code PreemptLowerPriority}; names
 * starting with {@code system-} are kube's own two classes only, with their values; a user's
 * value is at most one billion; {@code value} and {@code preemptionPolicy} never change. That at
 * most one class is the global default is the Priority admission plugin's rule ({@link PriorityAdmission}),
 * as in kube, so it is not checked when that plugin is disabled.
 */
final class PriorityClassStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final String SYSTEM_PREFIX = "system-";
    static final long HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000L;
    static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";
    static final List<String> PREEMPTION_POLICIES = List.of(PREEMPT_LOWER_PRIORITY, "Never");

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
    }

    private static void setDefaults(ObjectNode obj) {
        if (obj.path("preemptionPolicy").isMissingNode() || obj.path("preemptionPolicy").isNull()) {
            obj.put("preemptionPolicy", PREEMPT_LOWER_PRIORITY);
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String name = obj.path("metadata").path("name").asText("");
        long value = obj.path("value").asLong(0);
        boolean globalDefault = obj.path("globalDefault").asBoolean(false);
        if (name.startsWith(SYSTEM_PREFIX)) {
            String why = SystemPriorityClasses.whyNotKnown(name, value, globalDefault);
            if (why != null) {
                errs.add(FieldError.forbidden("metadata.name", "priority class names with '" + SYSTEM_PREFIX
                        + "' prefix are reserved for system use only. error: " + why));
            }
        } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
            errs.add(FieldError.forbidden("value", "maximum allowed value of a user defined priority is "
                    + HIGHEST_USER_DEFINABLE_PRIORITY));
        }
        JsonNode policy = obj.get("preemptionPolicy");
        if (policy != null && !policy.isNull() && !PREEMPTION_POLICIES.contains(policy.asText())) {
            errs.add(FieldError.notSupported("preemptionPolicy", policy.asText(), PREEMPTION_POLICIES));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        if (obj.path("value").asLong(0) != old.path("value").asLong(0)) {
            errs.add(FieldError.forbidden("value", "may not be changed in an update."));
        }
        String policy = obj.path("preemptionPolicy").asText(null);
        if (!Objects.equals(policy, old.path("preemptionPolicy").asText(null))) {
            errs.add(FieldError.invalid("preemptionPolicy", policy, "field is immutable"));
        }
        return errs;
    }
}
