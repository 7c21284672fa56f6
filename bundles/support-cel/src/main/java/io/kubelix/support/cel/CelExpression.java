package io.kubelix.support.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelRuntime;

import java.util.HashMap;
import java.util.Map;

/**
 * A compiled expression of a {@link CelEnvironment}, ready to run any number of times from any
 * thread. Bindings may be Jackson {@code JsonNode}s (converted by {@link CelValues#fromJson}) or the
 * Java values {@link CelValues} produces.
 *
 * <p>Cost: each run counts one unit per evaluated sub-expression (each comprehension step counts
 * again) and stops with {@link CelEvaluationError#costLimitExceeded()} once it passes the limit
 * given, so the limit bounds the work of one run as kube's per-call limit does.
 */
public final class CelExpression {
    private final String source;
    private final CelAbstractSyntaxTree ast;
    private final CelRuntime.Program program;

    CelExpression(String source, CelAbstractSyntaxTree ast, CelRuntime.Program program) {
        this.source = source;
        this.ast = ast;
        this.program = program;
    }

    public String source() {
        return source;
    }

    /** The type the checker gave the expression's result, such as {@code bool} or {@code string}. */
    public String resultType() {
        return ast.getResultType().name();
    }

    /** The checker's type of the result, for a variable of an environment to be declared with. */
    CelType celResultType() {
        return ast.getResultType();
    }

    /**
     * The expression's static cost (cel-go's {@code EstimateCost}, with kube's prices for its
     * libraries), the sizes of its variables' values from {@code sizes}: what kube compares with its
     * limits when a CRD's rule is written, before any object is validated.
     */
    public CostEstimate estimateCost(SizeEstimator sizes) {
        return CostChecker.estimate(ast, sizes);
    }

    /**
     * The result type as cel-go prints it in kube's messages, parameters included: {@code Object},
     * {@code list(JSONPatch)}, {@code map(string, dyn)}.
     */
    public String resultTypeSignature() {
        return dev.cel.common.types.CelTypes.format(ast.getResultType());
    }

    /** Runs the expression; returns its value as {@link CelValues} describes, and how much it cost. */
    public Result evaluate(Map<String, ?> bindings, long costLimit) throws CelEvaluationError {
        Map<String, Object> vars = new HashMap<>();
        bindings.forEach((k, v) -> vars.put(k, CelValues.fromJava(v)));
        Cost cost = new Cost(costLimit);
        try {
            Object value = program.trace(vars, cost);
            return new Result(CelValues.toJava(value), cost.spent);
        } catch (CostLimitExceeded e) {
            throw new CelEvaluationError("operation cancelled: actual cost limit exceeded", true, e);
        } catch (CelEvaluationException e) {
            if (e.getCause() instanceof CostLimitExceeded c) {
                throw new CelEvaluationError("operation cancelled: actual cost limit exceeded", true, c);
            }
            throw new CelEvaluationError(message(e), false, e);
        } catch (RuntimeException e) {
            if (e.getCause() instanceof CostLimitExceeded c) {
                throw new CelEvaluationError("operation cancelled: actual cost limit exceeded", true, c);
            }
            throw new CelEvaluationError(e.toString(), false, e);
        }
    }

    /** Runs an expression whose result is a boolean. */
    public boolean evaluateBoolean(Map<String, ?> bindings, long costLimit) throws CelEvaluationError {
        Object v = evaluate(bindings, costLimit).value();
        if (v instanceof Boolean b) {
            return b;
        }
        throw new CelEvaluationError("expression did not evaluate to a bool: " + v, false, null);
    }

    /**
     * cel-java's message without its position prefix, and worded as cel-go words it where kube's
     * messages quote it ({@code key 'foo' is not present in map.} is {@code no such key: foo}).
     */
    private static String message(CelEvaluationException e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof LibraryError library) {
                return library.getMessage();
            }
        }
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int colon = m.indexOf(": ");
        if (m.startsWith("evaluation error") && colon >= 0) {
            m = m.substring(colon + 2);
        }
        java.util.regex.Matcher missing = MISSING_KEY.matcher(m);
        return missing.find() ? "no such key: " + missing.group(1) : m;
    }

    private static final java.util.regex.Pattern MISSING_KEY = java.util.regex.Pattern.compile("key '(.*)' is not present in map");

    /** A value and the cost of computing it. */
    public record Result(Object value, long cost) {
    }

    private static final class Cost implements CelEvaluationListener {
        private final long limit;
        long spent;

        Cost(long limit) {
            this.limit = limit;
        }

        @Override
        public void callback(CelExpr expr, Object result) {
            if (++spent > limit) {
                throw new CostLimitExceeded();
            }
        }
    }

    private static final class CostLimitExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CostLimitExceeded() {
            super("actual cost limit exceeded", null, false, false);
        }
    }
}
