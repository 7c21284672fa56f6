package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.support.cel.CelCompileException;
import io.kubelix.support.cel.CelEnvironment;
import io.kubelix.support.cel.CelExpression;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CEL environment of a ValidatingAdmissionPolicy's expressions as kube's compiler builds it:
 * {@code object} and {@code oldObject} (dyn, or typed by a kind's schema when type checking),
 * {@code request} and {@code namespaceObject} as {@link AdmissionDeclTypes} declares them,
 * {@code params} when the policy has a param kind, the authorizer, and, composed as kube's
 * {@code CompositedCompiler} composes it, {@code variables}: an object whose fields have the types
 * of the variables' expressions, each compiled in order with those before it in reach (one that
 * does not compile is {@code dyn}).
 */
public final class PolicyEnvironment {
    /** The name kube's composition gives the type of {@code variables}. */
    private static final String VARIABLES_TYPE = "kubernetes.variables";

    private PolicyEnvironment() {
    }

    /**
     * The environment for a policy's expressions.
     *
     * @param object    the schema typing {@code object} and {@code oldObject}, or null for dyn
     * @param hasParams whether the policy has a param kind, so that {@code params} is declared
     * @param params    the schema typing {@code params}, or null for dyn
     * @param variables the policy's {@code spec.variables}; {@code variables} is declared only with
     *                  {@code composition}, as kube composes only a policy that has variables on write
     *                  and always when type checking
     */
    public static CelEnvironment of(JsonNode object, boolean hasParams, JsonNode params, JsonNode variables,
                                    boolean composition) {
        CelEnvironment.Builder b = CelEnvironment.builder();
        if (object == null) {
            b.variable("object", CelEnvironment.Type.DYN).variable("oldObject", CelEnvironment.Type.DYN);
        } else {
            b.variable("object", object, true).variable("oldObject", object, true);
        }
        b.variable("request", AdmissionDeclTypes.REQUEST, false)
                .variable("namespaceObject", AdmissionDeclTypes.NAMESPACE, false)
                .variable("authorizer", CelEnvironment.Type.AUTHORIZER)
                .variable("authorizer.requestResource", CelEnvironment.Type.RESOURCE_CHECK);
        if (hasParams) {
            if (params == null) {
                b.variable("params", CelEnvironment.Type.DYN);
            } else {
                b.variable("params", params, true);
            }
        }
        if (!composition) {
            return b.build();
        }
        Map<String, CelExpression> compiled = new LinkedHashMap<>();
        for (JsonNode v : variables) {
            CelEnvironment env = b.variable("variables", VARIABLES_TYPE, compiled).build();
            CelExpression e;
            try {
                e = env.compile(v.path("expression").asText(""));
            } catch (CelCompileException ex) {
                e = null;
            }
            compiled.put(v.path("name").asText(""), e);
        }
        return b.variable("variables", VARIABLES_TYPE, compiled).build();
    }

    /**
     * kube's compile of one expression that must evaluate to one of {@code returnTypes} (CEL's names:
     * {@code bool}, {@code string}, {@code null_type}): null when it does, else kube's detail
     * ({@code compilation failed: ERROR: ...}, {@code must evaluate to one of [string null_type]}).
     */
    public static String compileError(CelEnvironment env, String expression, List<String> returnTypes) {
        CelExpression e;
        try {
            e = env.compile(expression);
        } catch (CelCompileException ex) {
            return "compilation failed: " + ex.getMessage();
        }
        if (returnTypes.contains(e.resultType())) {
            return null;
        }
        return returnTypes.size() == 1 ? "must evaluate to " + returnTypes.get(0)
                : "must evaluate to one of [" + String.join(" ", returnTypes) + "]";
    }
}
