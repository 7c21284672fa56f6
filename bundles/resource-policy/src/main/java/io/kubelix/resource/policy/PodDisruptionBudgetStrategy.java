package io.kubelix.resource.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's podDisruptionBudgetStrategy and ValidatePodDisruptionBudgetSpec (pkg/apis/policy/validation):
 * a new budget starts with a zero status (its counters, which kube always writes), the main
 * resource keeps the stored status, and the spec has minAvailable or maxUnavailable, not both, each
 * a non-negative integer or a percent of at most 100%, a valid selector and a supported unhealthy
 * pod eviction policy. The spec may change (policy/v1).
 */
final class PodDisruptionBudgetStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> EVICTION_POLICIES = List.of("AlwaysAllow", "IfHealthyBudget");
    static final String[] STATUS_COUNTERS = {"disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"};
    private static final Pattern PERCENT = Pattern.compile("[0-9]+%");
    /** An IntOrString pointer as Go's %#v prints it inside a struct: an address. */
    private static final String POINTER = "(*intstr.IntOrString)(0xc000000000)";

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectNode status = obj.putObject("status");
        for (String f : STATUS_COUNTERS) {
            status.put(f, 0);
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return spec(obj.path("spec"));
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return spec(obj.path("spec"));
    }

    static List<FieldError> spec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode min = spec.get("minAvailable");
        JsonNode max = spec.get("maxUnavailable");
        boolean hasMin = min != null && !min.isNull();
        boolean hasMax = max != null && !max.isNull();
        if (hasMin && hasMax) {
            errs.add(FieldError.invalid("spec", new GoSyntax("policy.PodDisruptionBudgetSpec{MinAvailable:" + POINTER
                    + ", Selector:" + (spec.hasNonNull("selector") ? "(*v1.LabelSelector)(0xc000000001)" : "(*v1.LabelSelector)(nil)")
                    + ", MaxUnavailable:" + POINTER + ", UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)("
                    + (spec.hasNonNull("unhealthyPodEvictionPolicy") ? "0xc000000002" : "nil") + ")}"),
                    "minAvailable and maxUnavailable cannot be both set"));
        }
        if (hasMin) {
            errs.addAll(intOrPercent(min, "spec.minAvailable"));
        }
        if (hasMax) {
            errs.addAll(intOrPercent(max, "spec.maxUnavailable"));
        }
        if (spec.hasNonNull("selector")) {
            errs.addAll(MetadataValidators.validateLabelSelector(spec.get("selector"), "spec.selector"));
        }
        JsonNode policy = spec.get("unhealthyPodEvictionPolicy");
        if (policy != null && !policy.isNull() && !EVICTION_POLICIES.contains(policy.asText())) {
            errs.add(FieldError.notSupported("spec.unhealthyPodEvictionPolicy", policy.asText(), EVICTION_POLICIES));
        }
        return errs;
    }

    /** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
    private static List<FieldError> intOrPercent(JsonNode v, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (v.isTextual()) {
            String s = v.asText();
            if (!PERCENT.matcher(s).matches()) {
                errs.add(FieldError.invalid(path, go(v), "a valid percent string must be a numeric string followed by an "
                        + "ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
            } else if (Long.parseLong(s.substring(0, s.length() - 1)) > 100) {
                errs.add(FieldError.invalid(path, go(v), "must not be greater than 100%"));
            }
        } else if (v.isIntegralNumber()) {
            errs.addAll(MetadataValidators.validateNonnegative(v.asLong(), path));
        } else {
            errs.add(FieldError.invalid(path, go(v), "must be an integer or percentage (e.g '5%%')"));
        }
        return errs;
    }

    /** An intstr.IntOrString as kube's field errors print it. */
    private static GoSyntax go(JsonNode v) {
        if (v.isTextual()) {
            return new GoSyntax("intstr.IntOrString{Type:1, IntVal:0, StrVal:\"" + v.asText() + "\"}");
        }
        return new GoSyntax("intstr.IntOrString{Type:0, IntVal:" + v.asLong(0) + ", StrVal:\"\"}");
    }

    /** The {@code status} subresource: only the status changes, and its counters are not negative. */
    static final class Status implements RESTUpdateStrategy {
        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            StatusStrategies.keepOnlyStatus(obj, old);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            List<FieldError> errs = new ArrayList<>();
            JsonNode status = obj.path("status");
            for (String f : STATUS_COUNTERS) {
                JsonNode v = status.get(f);
                if (v != null && v.isNumber()) {
                    errs.addAll(MetadataValidators.validateNonnegative(v.asLong(), "status." + f));
                }
            }
            return errs;
        }
    }
}
