package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's validatingadmissionpolicybinding strategy: matchResources and paramRef defaults, and
 * kube's validation (a policy name, a paramRef with a name or a selector and a
 * parameterNotFoundAction, known and compatible validation actions).
 */
final class ValidatingAdmissionPolicyBindingStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> ACTIONS = List.of("Audit", "Deny", "Warn");
    static final List<String> PARAMETER_NOT_FOUND_ACTIONS = List.of("Allow", "Deny");

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
    }

    /** SetDefaults_MatchResources and SetDefaults_ParamRef (parameterNotFoundAction Deny). */
    static void setDefaults(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        MatchResources.setDefaults(spec.get("matchResources"));
        if (spec.get("paramRef") instanceof ObjectNode ref) {
            WebhookConfigurationStrategy.putIfAbsent(ref, "parameterNotFoundAction", "Deny");
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>(bindingSpec(spec));
        // kube spells this path "matchResouces"; clients match on it.
        errs.addAll(MatchResources.validate(spec.get("matchResources"), "spec.matchResouces"));
        errs.addAll(validationActions(RuleValidation.strings(spec.path("validationActions"))));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }

    /** What validating and mutating bindings validate alike: the policy's name and the paramRef. */
    static List<FieldError> bindingSpec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        String policyName = spec.path("policyName").asText("");
        if (policyName.isEmpty()) {
            errs.add(FieldError.required("spec.policyName", ""));
        } else {
            NameValidators.isDNS1123Subdomain(policyName).forEach(m -> errs.add(FieldError.invalid("spec.policyName", policyName, m)));
        }
        errs.addAll(paramRef(spec.get("paramRef")));
        return errs;
    }

    private static List<FieldError> paramRef(JsonNode ref) {
        List<FieldError> errs = new ArrayList<>();
        if (ref == null || ref.isNull()) {
            return errs;
        }
        String p = "spec.paramRef";
        String name = ref.path("name").asText("");
        JsonNode selector = ref.get("selector");
        boolean hasSelector = selector != null && !selector.isNull();
        if (!name.isEmpty()) {
            NameValidators.isDNS1123Subdomain(name).forEach(m -> errs.add(FieldError.invalid(p + ".name", name, m)));
            if (hasSelector) {
                errs.add(FieldError.forbidden(p + ".name", "name and selector are mutually exclusive"));
            }
        }
        if (hasSelector) {
            errs.addAll(MetadataValidators.validateLabelSelector(selector, p + ".selector"));
            if (!name.isEmpty()) {
                errs.add(FieldError.forbidden(p + ".selector", "name and selector are mutually exclusive"));
            }
        }
        if (name.isEmpty() && !hasSelector) {
            errs.add(FieldError.required(p, "one of name or selector must be specified"));
        }
        JsonNode action = ref.get("parameterNotFoundAction");
        if (action == null || action.isNull() || action.asText().isEmpty()) {
            errs.add(FieldError.required(p + ".parameterNotFoundAction", ""));
        } else {
            errs.addAll(RuleValidation.oneOf(action, p + ".parameterNotFoundAction", PARAMETER_NOT_FOUND_ACTIONS));
        }
        return errs;
    }

    private static List<FieldError> validationActions(List<String> actions) {
        List<FieldError> errs = new ArrayList<>();
        String p = "spec.validationActions";
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < actions.size(); i++) {
            String a = actions.get(i);
            if (!ACTIONS.contains(a)) {
                errs.add(FieldError.notSupported(p + "[" + i + "]", a, ACTIONS));
            }
            if (!seen.add(a)) {
                errs.add(FieldError.duplicate(p + "[" + i + "]", a));
            }
        }
        if (seen.contains("Deny") && seen.contains("Warn")) {
            errs.add(FieldError.invalid(p, new GoSyntax(actions.stream().map(a -> "\"" + a + "\"")
                    .collect(java.util.stream.Collectors.joining(", ", "[]admissionregistration.ValidationAction{", "}"))),
                    "must not contain both Deny and Warn (repeating the same validation failure information in the API "
                            + "response and headers serves no purpose)"));
        }
        if (seen.isEmpty()) {
            errs.add(FieldError.required(p, "at least one validation action is required"));
        }
        return errs;
    }
}
