package io.kubelix.resource.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The PriorityClass strategy (pkg/registry/scheduling/priorityclass and the validation of
 * pkg/apis/scheduling): {@code preemptionPolicy} defaults to {@code PreemptLowerPriority}; names
 * starting with {@code system-} are kube's own two classes only, with their values; a user's
 * value is at most one billion; {@code value} and {@code preemptionPolicy} never change. At most
 * one class is the global default, which kube's Priority admission plugin enforces with a 403.
 */
final class PriorityClassStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final String SYSTEM_PREFIX = "system-";
    static final long HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000L;
    static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";
    static final List<String> PREEMPTION_POLICIES = List.of(PREEMPT_LOWER_PRIORITY, "Never");

    /** The store, to look for another global default; null in tests that do not need it. */
    private final Supplier<StandardStorage> store;

    PriorityClassStrategy(Supplier<StandardStorage> store) {
        this.store = store;
    }

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
        if (errs.isEmpty() && globalDefault) {
            checkSingleDefault(name, true);
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
        if (errs.isEmpty() && obj.path("globalDefault").asBoolean(false)) {
            checkSingleDefault(obj.path("metadata").path("name").asText(""), false);
        }
        return errs;
    }

    /**
     * The Priority admission plugin's rule: a class may become the global default only when no other
     * class is; on create even one of the same name counts.
     */
    private void checkSingleDefault(String name, boolean create) {
        if (store == null) {
            return;
        }
        StandardStorage s = store.get();
        for (ObjectNode pc : s.list(RequestContext.system(""), ListOptions.recursiveAll()).items()) {
            String other = pc.path("metadata").path("name").asText("");
            if (pc.path("globalDefault").asBoolean(false) && (create || !other.equals(name))) {
                throw StatusException.forbidden(SchedulingRESTStorageProvider.PRIORITY_CLASSES, name, "PriorityClass "
                        + other + " is already marked as default. Only one default can exist");
            }
        }
    }
}
