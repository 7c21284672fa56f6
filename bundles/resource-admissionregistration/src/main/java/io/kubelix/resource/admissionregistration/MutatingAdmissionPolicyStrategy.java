package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's mutatingadmissionpolicy strategy (admissionregistration.k8s.io/v1beta1): failurePolicy Fail
 * and the matchConstraints defaults, and kube's validation: a failure and a reinvocation policy,
 * match constraints with at least one resource rule and no DELETE (only creates and updates can be
 * mutated), a complete paramKind, named variables, and at least one mutation whose
 * {@code patchType} says which of {@code applyConfiguration} and {@code jsonPatch} it has. CEL
 * expressions are stored without being compiled; the admission plugin compiles them.
 */
final class MutatingAdmissionPolicyStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> PATCH_TYPES = List.of("ApplyConfiguration", "JSONPatch");
    /** kube's supportedMutatingOperations, sorted as its error lists them. */
    static final List<String> MUTATING_OPERATIONS = List.of("*", "CONNECT", "CREATE", "UPDATE");

    /** SetDefaults_MutatingAdmissionPolicySpec and SetDefaults_MatchResources, a validating policy's; reinvocationPolicy has no default. */
    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ValidatingAdmissionPolicyStrategy.setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        ValidatingAdmissionPolicyStrategy.setDefaults(obj);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>(ValidatingAdmissionPolicyStrategy.policySpec(spec));
        if (spec.hasNonNull("matchConstraints")) {
            errs.addAll(mutableOperations(spec.get("matchConstraints"), "spec.matchConstraints"));
        }
        errs.addAll(ValidatingAdmissionPolicyStrategy.variables(spec.path("variables")));
        if (spec.path("mutations").isEmpty()) {
            errs.add(FieldError.required("spec.mutations", "mutations must contain at least one item"));
        }
        int i = 0;
        for (JsonNode m : spec.path("mutations")) {
            errs.addAll(mutation(m, "spec.mutations[" + i++ + "]"));
        }
        JsonNode reinvocation = spec.get("reinvocationPolicy");
        if (reinvocation == null || reinvocation.isNull() || reinvocation.asText().isEmpty()) {
            errs.add(FieldError.required("spec.reinvocationPolicy", ""));
        } else {
            errs.addAll(RuleValidation.oneOf(reinvocation, "spec.reinvocationPolicy", List.of("Never", "IfNeeded")));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }

    /** kube's check that only creates and updates are matched: DELETE (and anything unknown) is not supported. */
    static List<FieldError> mutableOperations(JsonNode match, String p) {
        List<FieldError> errs = new ArrayList<>();
        for (JsonNode rule : match.path("resourceRules")) {
            for (JsonNode op : rule.path("operations")) {
                if (!MUTATING_OPERATIONS.contains(op.asText())) {
                    errs.add(FieldError.notSupported(p + ".resourceRules.operations", op.asText(), MUTATING_OPERATIONS));
                }
            }
        }
        return errs;
    }

    /** kube's validateMutation: the patch type names the one of applyConfiguration and jsonPatch given. */
    private static List<FieldError> mutation(JsonNode m, String p) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode patchType = m.get("patchType");
        boolean apply = m.hasNonNull("applyConfiguration");
        boolean json = m.hasNonNull("jsonPatch");
        if (patchType == null || patchType.isNull() || patchType.asText().isEmpty()) {
            errs.add(FieldError.required(p + ".patchType", ""));
            return errs;
        }
        switch (patchType.asText()) {
            case "JSONPatch" -> {
                if (!json) {
                    errs.add(FieldError.required(p + ".jsonPatch", "must be specified when patchType is JSONPatch"));
                } else if (m.path("jsonPatch").path("expression").asText("").isBlank()) {
                    errs.add(FieldError.required(p + ".jsonPatch.expression", ""));
                }
                if (apply) {
                    errs.add(FieldError.invalid(p + ".applyConfiguration", new GoSyntax("{applyConfiguration}"),
                            "must not be specified when patchType is JSONPatch"));
                }
            }
            case "ApplyConfiguration" -> {
                if (!apply) {
                    errs.add(FieldError.required(p + ".applyConfiguration",
                            "must be specified when patchType is ApplyConfiguration"));
                } else if (m.path("applyConfiguration").path("expression").asText("").isBlank()) {
                    errs.add(FieldError.required(p + ".applyConfiguration.expression", ""));
                }
                if (json) {
                    errs.add(FieldError.invalid(p + ".jsonPatch", new GoSyntax("{jsonPatch}"),
                            "must not be specified when patchType is ApplyConfiguration"));
                }
            }
            default -> errs.add(FieldError.notSupported(p + ".patchType", patchType.asText(), PATCH_TYPES));
        }
        return errs;
    }
}
