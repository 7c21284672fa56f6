package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.support.cel.CelCompileException;
import io.kubelix.support.cel.CelEnvironment;
import io.kubelix.support.cel.CelEvaluationError;
import io.kubelix.support.cel.CelExpression;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A webhook's or an admission policy's {@code matchConditions} (kube's {@code matchconditions.Matcher}),
 * compiled once: CEL expressions that must all hold for the configuration to apply. One that is
 * false means it does not apply; errors with none false are a failure the configuration's
 * {@code failurePolicy} decides about. An expression that does not compile fails when it runs.
 */
public final class MatchConditions {
    /** The variables kube declares for admission expressions; see {@link AdmissionAuthorizer} for the authorizer's. */
    public static final CelEnvironment ENVIRONMENT = admissionVariables().build();
    /** An environment builder with kube's admission variables, to which a plugin may add (mutating policies' object literals). */
    public static CelEnvironment.Builder admissionVariables() {
        return CelEnvironment.builder()
                .variable("object", CelEnvironment.Type.DYN)
                .variable("oldObject", CelEnvironment.Type.DYN)
                .variable("request", CelEnvironment.Type.DYN)
                .variable("params", CelEnvironment.Type.DYN)
                .variable("namespaceObject", CelEnvironment.Type.DYN)
                .variable("variables", CelEnvironment.Type.MAP)
                .variable("authorizer", CelEnvironment.Type.AUTHORIZER)
                .variable("authorizer.requestResource", CelEnvironment.Type.RESOURCE_CHECK);
    }

    private static final MatchConditions NONE = new MatchConditions(List.of());

    /** An expression that compiled, or the reason it did not. */
    public record Compiled(String source, CelExpression expression, String error) {
        public static Compiled of(String source) {
            try {
                return new Compiled(source, ENVIRONMENT.compile(source), null);
            } catch (CelCompileException e) {
                return new Compiled(source, null, "compilation error: " + e.getMessage());
            }
        }

        /**
         * The expression's value for these bindings (CEL values, see {@code CelValues}).
         *
         * @throws EvaluationException with kube's message when it does not compile or fails
         */
        public Object evaluate(Map<String, Object> bindings) throws EvaluationException {
            if (expression == null) {
                throw new EvaluationException(error);
            }
            try {
                return expression.evaluate(bindings, CelEnvironment.PER_CALL_COST_LIMIT).value();
            } catch (CelEvaluationError e) {
                throw new EvaluationException("expression '" + source + "' resulted in error: " + e.getMessage());
            }
        }
    }

    private final List<Compiled> conditions;

    private MatchConditions(List<Compiled> conditions) {
        this.conditions = conditions;
    }

    /** Compiles the {@code matchConditions} list of a webhook or a policy. */
    public static MatchConditions compile(JsonNode matchConditions) {
        if (!matchConditions.isArray() || matchConditions.isEmpty()) {
            return NONE;
        }
        List<Compiled> compiled = new ArrayList<>();
        for (JsonNode c : matchConditions) {
            compiled.add(Compiled.of(c.path("expression").asText()));
        }
        return new MatchConditions(List.copyOf(compiled));
    }

    public boolean isEmpty() {
        return conditions.isEmpty();
    }

    /**
     * Whether every condition holds.
     *
     * @throws EvaluationException when some could not be evaluated and none was false: one error's
     *                             message, or several in brackets as kube aggregates them
     */
    public boolean hold(Map<String, Object> bindings) throws EvaluationException {
        List<String> errors = new ArrayList<>();
        for (Compiled c : conditions) {
            try {
                Object v = c.evaluate(bindings);
                if (Boolean.FALSE.equals(v)) {
                    return false;
                }
                if (!Boolean.TRUE.equals(v)) {
                    errors.add("expression '" + c.source() + "' resulted in error: no such overload");
                }
            } catch (EvaluationException e) {
                errors.add(e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new EvaluationException(errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
        }
        return true;
    }

    /** An expression that could not be evaluated, with kube's message. */
    public static final class EvaluationException extends Exception {
        public EvaluationException(String message) {
            super(message, null, false, false);
        }
    }
}
