package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.StructuredMergeDiff;
import io.kubelix.support.admission.MatchConditions;
import io.kubelix.support.cel.CelCompileException;
import io.kubelix.support.cel.CelEnvironment;
import io.kubelix.support.cel.CelEvaluationError;
import io.kubelix.support.cel.CelExpression;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One MutatingAdmissionPolicy's expressions, compiled once per version of the policy (kube's
 * mutating {@code compilation.go}): its match conditions and variables as a validating policy's
 * ({@link CompiledPolicy}), and its mutations in kube's mutating environment, where
 * {@code Object{...}} and {@code JSONPatch{...}} literals build what the mutation applies. An
 * ApplyConfiguration expression must evaluate to {@code Object}, a JSONPatch one to
 * {@code list(JSONPatch)}; one that does not compile fails when it would run, under the policy's
 * failure policy, as kube's compile errors do.
 */
final class CompiledMutatingPolicy {
    /** kube's mutating environment: the admission variables and the object and patch literals. */
    static final CelEnvironment ENVIRONMENT = MatchConditions.admissionVariables().objectLiterals().build();

    /** A mutation's patch type, its expression if it compiled, else why not. */
    record Mutation(boolean jsonPatch, String source, CelExpression expression, String error) {
    }

    private final CompiledPolicy common;
    private final boolean reinvokeIfNeeded;
    private final List<Mutation> mutations = new ArrayList<>();

    CompiledMutatingPolicy(ObjectNode policy) {
        this.common = new CompiledPolicy(policy);
        JsonNode spec = policy.path("spec");
        this.reinvokeIfNeeded = "IfNeeded".equals(spec.path("reinvocationPolicy").asText());
        for (JsonNode m : spec.path("mutations")) {
            boolean json = "JSONPatch".equals(m.path("patchType").asText());
            String source = (json ? m.path("jsonPatch") : m.path("applyConfiguration")).path("expression").asText("");
            mutations.add(compile(json, source));
        }
    }

    private static Mutation compile(boolean json, String source) {
        String expected = json ? "list(JSONPatch)" : "Object";
        try {
            CelExpression e = ENVIRONMENT.compile(source);
            if (!expected.equals(e.resultTypeSignature())) {
                return new Mutation(json, source, null, "must evaluate to " + expected);
            }
            return new Mutation(json, source, e, null);
        } catch (CelCompileException e) {
            return new Mutation(json, source, null, "compilation failed: " + e.getMessage().strip());
        }
    }

    String name() {
        return common.name();
    }

    /** Match conditions, variables, failure policy and the policy's spec, shared with validating policies. */
    CompiledPolicy common() {
        return common;
    }

    /** Whether the policy runs again when a later mutation changed the object ({@code reinvocationPolicy: IfNeeded}). */
    boolean reinvokeIfNeeded() {
        return reinvokeIfNeeded;
    }

    List<Mutation> mutations() {
        return mutations;
    }

    /**
     * Applies one mutation to {@code object}, which it does not change.
     *
     * @throws CompiledPolicy.PolicyException with kube's message when it does not compile, fails or
     *                                        does not apply
     */
    static ObjectNode apply(Mutation m, Map<String, Object> bindings, ObjectNode object, StructuredMergeDiff smd,
                            ResourceSchema schema) throws CompiledPolicy.PolicyException {
        if (m.expression() == null) {
            throw new CompiledPolicy.PolicyException(m.error());
        }
        Object result;
        try {
            result = m.expression().evaluate(bindings, CelEnvironment.PER_CALL_COST_LIMIT).value();
        } catch (CelEvaluationError e) {
            throw new CompiledPolicy.PolicyException("expression '" + m.source() + "' resulted in error: " + e.getMessage());
        }
        return m.jsonPatch() ? JsonPatcher.patch(object, result)
                : ApplyConfigurationPatcher.patch(smd, schema, object, result);
    }
}
