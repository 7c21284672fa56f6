package io.kubelix.authz.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.support.cel.CelCompileException;
import io.kubelix.support.cel.CelEnvironment;
import io.kubelix.support.cel.CelEvaluationError;
import io.kubelix.support.cel.CelExpression;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A webhook's {@code matchConditions}, kube's CEL matcher: each expression sees the
 * SubjectAccessReview's spec as {@code request} ({@code request.user}, {@code request.groups},
 * {@code request.resourceAttributes.namespace}, ...). The webhook is called when every condition is
 * true; one that is false skips it; when none is false but one fails, the webhook's failure policy
 * decides. Compiled when the configuration is read, through the project's one CEL engine.
 */
final class MatchConditions {
    static final MatchConditions NONE = new MatchConditions(List.of());
    private static final CelEnvironment ENV = CelEnvironment.builder().variable("request", CelEnvironment.Type.MAP).build();
    /** kube's limit on a webhook's conditions. */
    private static final int MAX = 64;

    /** What the conditions say of a request. */
    enum Match { YES, NO, ERROR }

    private final List<CelExpression> expressions;

    private MatchConditions(List<CelExpression> expressions) {
        this.expressions = expressions;
    }

    /**
     * Compiles a webhook's conditions, adding kube's field errors for those that are empty, repeated
     * or do not compile to a bool.
     *
     * @param path the webhook's field path, such as {@code authorizers[1]}
     */
    static MatchConditions compile(JsonNode conditions, String path, List<String> errors) {
        if (conditions.size() > MAX) {
            errors.add(path + ".matchConditions: Too many: " + conditions.size() + ": must have at most " + MAX
                    + " items");
            return NONE;
        }
        Set<String> seen = new HashSet<>();
        List<CelExpression> compiled = new ArrayList<>();
        for (int i = 0; i < conditions.size(); i++) {
            String at = path + ".matchConditions[" + i + "].expression";
            String source = conditions.get(i).path("expression").asText("");
            if (source.isBlank()) {
                errors.add(at + ": Required value");
                continue;
            }
            if (!seen.add(source)) {
                errors.add(at + ": Duplicate value: \"" + source + "\"");
                continue;
            }
            try {
                CelExpression e = ENV.compile(source);
                // kube's request is typed, so request.user is a string there; here the untyped value must be
                // compared or tested to be a bool.
                if (!e.resultType().equals("bool")) {
                    errors.add(at + ": Invalid value: \"" + source + "\": must evaluate to bool");
                    continue;
                }
                compiled.add(e);
            } catch (CelCompileException e) {
                errors.add(at + ": Invalid value: \"" + source + "\": compilation failed: " + e.getMessage());
            }
        }
        return compiled.isEmpty() ? NONE : new MatchConditions(List.copyOf(compiled));
    }

    boolean isEmpty() {
        return expressions.isEmpty();
    }

    /**
     * Evaluates every condition on the review's spec: a false one wins over a failed one.
     *
     * @param failures where the messages of conditions that failed go
     */
    Match test(JsonNode spec, List<String> failures) {
        if (expressions.isEmpty()) {
            return Match.YES;
        }
        Map<String, Object> bindings = Map.of("request", spec);
        boolean failed = false;
        for (CelExpression e : expressions) {
            try {
                if (!e.evaluateBoolean(bindings, CelEnvironment.PER_CALL_COST_LIMIT)) {
                    return Match.NO;
                }
            } catch (CelEvaluationError error) {
                failures.add(e.source() + ": " + error.getMessage());
                failed = true;
            }
        }
        return failed ? Match.ERROR : Match.YES;
    }
}
