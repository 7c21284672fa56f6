package io.kubelix.authn.oidc;

import io.kubelix.authn.oidc.IssuerVerifier.RefusedException;
import io.kubelix.support.cel.CelCompileException;
import io.kubelix.support.cel.CelEnvironment;
import io.kubelix.support.cel.CelEvaluationError;
import io.kubelix.support.cel.CelExpression;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The CEL expressions of a jwt authenticator (kube's {@code CELMapper}): claim mappings and claim
 * validation rules see the token's claims as {@code claims}, user validation rules the mapped user as
 * {@code user} ({@code username}, {@code uid}, {@code groups}, {@code extra}). Compiled when the
 * configuration is read, evaluated per token under kube's per-call cost limit, through the project's
 * one CEL engine (support-cel).
 */
final class ClaimExpressions {
    static final CelEnvironment CLAIMS = CelEnvironment.builder().variable("claims", CelEnvironment.Type.MAP).build();
    static final CelEnvironment USER = CelEnvironment.builder().variable("user", CelEnvironment.Type.MAP).build();

    /** A validation rule: an expression that must be true, and what to say when it is not. */
    record Rule(CelExpression expression, String message) {
    }

    /** An extra attribute: its key and the expression of its values. */
    record Extra(String key, CelExpression value) {
    }

    static final ClaimExpressions NONE = new ClaimExpressions(null, null, null, List.of(), List.of(), List.of());

    final CelExpression username;
    final CelExpression groups;
    final CelExpression uid;
    final List<Extra> extra;
    final List<Rule> claimRules;
    final List<Rule> userRules;

    ClaimExpressions(CelExpression username, CelExpression groups, CelExpression uid, List<Extra> extra,
                     List<Rule> claimRules, List<Rule> userRules) {
        this.username = username;
        this.groups = groups;
        this.uid = uid;
        this.extra = List.copyOf(extra);
        this.claimRules = List.copyOf(claimRules);
        this.userRules = List.copyOf(userRules);
    }

    /** Compiles an expression, adding kube's field error when it does not compile. */
    static CelExpression compile(CelEnvironment env, String path, String source, List<String> errors) {
        try {
            return env.compile(source);
        } catch (CelCompileException e) {
            errors.add(path + ": Invalid value: \"" + source + "\": compilation failed: " + e.getMessage());
            return null;
        }
    }

    String username(Map<String, Object> claims) throws RefusedException {
        Object v = run(username, "claims", claims, "oidc: error evaluating username claim expression");
        if (!(v instanceof String s)) {
            throw new RefusedException("oidc: error evaluating username claim expression: username claim expression "
                    + "must return a string");
        }
        return s;
    }

    List<String> groups(Map<String, Object> claims) throws RefusedException {
        return strings(run(groups, "claims", claims, "oidc: error evaluating group claim expression"),
                "oidc: error evaluating group claim expression");
    }

    String uid(Map<String, Object> claims) throws RefusedException {
        Object v = run(uid, "claims", claims, "oidc: error evaluating uid claim expression");
        if (!(v instanceof String s)) {
            throw new RefusedException("oidc: error evaluating uid claim expression: uid claim expression must "
                    + "return a string");
        }
        return s;
    }

    List<String> extra(Extra e, Map<String, Object> claims) throws RefusedException {
        return strings(run(e.value(), "claims", claims, "oidc: error evaluating extra claim expression"),
                "oidc: error evaluating extra claim expression: " + e.value().source());
    }

    void checkClaims(Map<String, Object> claims) throws RefusedException {
        check(claimRules, "claims", claims, "oidc: error evaluating claim validation expression");
    }

    void checkUser(Map<String, Object> user) throws RefusedException {
        check(userRules, "user", user, "oidc: error evaluating user info validation rule");
    }

    private static void check(List<Rule> rules, String variable, Map<String, Object> value, String what)
            throws RefusedException {
        for (Rule rule : rules) {
            Object result = run(rule.expression(), variable, value, what);
            if (!(result instanceof Boolean b)) {
                throw new RefusedException(what + ": validation expression must return a boolean");
            }
            if (!b) {
                throw new RefusedException(what + ": validation expression '" + rule.expression().source()
                        + "' failed: " + rule.message());
            }
        }
    }

    private static Object run(CelExpression expression, String variable, Map<String, Object> value, String what)
            throws RefusedException {
        try {
            return expression.evaluate(Map.of(variable, value), CelEnvironment.PER_CALL_COST_LIMIT).value();
        } catch (CelEvaluationError e) {
            throw new RefusedException(what + ": " + e.getMessage());
        }
    }

    /** kube's convertCELValueToStringList: a string or a list of strings; empty ones and null are none. */
    private static List<String> strings(Object v, String what) throws RefusedException {
        if (v == null) {
            return List.of();
        }
        if (v instanceof String s) {
            return s.isEmpty() ? List.of() : List.of(s);
        }
        if (v instanceof Collection<?> c) {
            List<String> out = new ArrayList<>();
            for (Object o : c) {
                if (!(o instanceof String s)) {
                    throw new RefusedException(what + ": expression must return a string or a list of strings");
                }
                if (!s.isEmpty()) {
                    out.add(s);
                }
            }
            return out;
        }
        throw new RefusedException(what + ": expression must return a string or a list of strings");
    }
}
