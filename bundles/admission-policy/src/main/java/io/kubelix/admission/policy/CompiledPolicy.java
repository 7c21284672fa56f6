package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.support.admission.MatchConditions;
import io.kubelix.support.admission.MatchConditions.Compiled;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One ValidatingAdmissionPolicy's expressions, compiled once per version of the policy (kube's
 * {@code validatingadmissionpolicy.validator}): its match conditions, variables, validations with
 * their message expressions, and audit annotations. An expression that does not compile fails when
 * it would run, under the policy's failure policy, as kube's compile errors do.
 */
final class CompiledPolicy {
    /** kube's limit on a message built by messageExpression (celconfig.MaxEvaluatedMessageExpressionSizeBytes). */
    private static final int MAX_MESSAGE_BYTES = 5 * 1024;
    /** kube's limit on an audit annotation's value; a longer one is cut. */
    private static final int MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;

    /** What one validation came to. */
    enum Outcome { ADMIT, DENY, ERROR }

    /** A validation's result: its outcome, the message for a denial or an error, and the reason of a denial. */
    record Decision(Outcome outcome, String message, String reason) {
    }

    private record Validation(Compiled expression, String message, Compiled messageExpression, String reason) {
    }

    private record Variable(String name, Compiled expression) {
    }

    private record AuditAnnotation(String key, Compiled valueExpression) {
    }

    /**
     * An audit annotation's outcome: a value to publish, or an error (kube's
     * {@code AuditAnnotationActionError}) that denies the request. One left out (an empty string,
     * null, or an error under {@code failurePolicy: Ignore}) has no result.
     */
    record AuditResult(String key, String value, String error) {
    }

    private final String name;
    private final String resourceVersion;
    private final JsonNode spec;
    private final boolean failOpen;
    private final MatchConditions matchConditions;
    private final List<Variable> variables = new ArrayList<>();
    private final List<Validation> validations = new ArrayList<>();
    private final List<AuditAnnotation> auditAnnotations = new ArrayList<>();

    CompiledPolicy(ObjectNode policy) {
        this.name = policy.path("metadata").path("name").asText();
        this.resourceVersion = policy.path("metadata").path("resourceVersion").asText();
        this.spec = policy.path("spec");
        this.failOpen = "Ignore".equals(spec.path("failurePolicy").asText("Fail"));
        this.matchConditions = MatchConditions.compile(spec.path("matchConditions"));
        for (JsonNode v : spec.path("variables")) {
            variables.add(new Variable(v.path("name").asText(), Compiled.of(v.path("expression").asText())));
        }
        for (JsonNode v : spec.path("validations")) {
            String messageExpression = v.path("messageExpression").asText("");
            validations.add(new Validation(Compiled.of(v.path("expression").asText()), v.path("message").asText(""),
                    messageExpression.isEmpty() ? null : Compiled.of(messageExpression), v.path("reason").asText("")));
        }
        for (JsonNode a : spec.path("auditAnnotations")) {
            auditAnnotations.add(new AuditAnnotation(a.path("key").asText(),
                    Compiled.of(a.path("valueExpression").asText().strip())));
        }
    }

    String name() {
        return name;
    }

    String resourceVersion() {
        return resourceVersion;
    }

    JsonNode spec() {
        return spec;
    }

    /** Whether the policy's failure policy is {@code Ignore}: errors admit instead of denying. */
    boolean failOpen() {
        return failOpen;
    }

    /** The outcome of an error under the failure policy. */
    Outcome onError() {
        return failOpen ? Outcome.ADMIT : Outcome.ERROR;
    }

    /**
     * kube's match conditions: all must hold. A false one means the policy does not apply; errors
     * with none false are an error (kube aggregates them).
     *
     * @throws PolicyException when a condition could not be evaluated and none was false
     */
    boolean conditionsHold(Map<String, Object> bindings) throws PolicyException {
        try {
            return matchConditions.hold(bindings);
        } catch (MatchConditions.EvaluationException e) {
            throw new PolicyException(e.getMessage());
        }
    }

    /**
     * Evaluates the variables in order (each may use those before it) into {@code bindings}'
     * {@code variables}; a variable that fails is left out, and its error is what an expression
     * using it meets.
     */
    Map<String, String> bindVariables(Map<String, Object> bindings) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> errors = new HashMap<>();
        bindings.put("variables", values);
        for (Variable v : variables) {
            try {
                Object value = evaluate(v.expression(), bindings);
                values.put(v.name(), value);
            } catch (PolicyException e) {
                errors.put(v.name(), e.getMessage());
            }
        }
        return errors;
    }

    /** Each validation's decision, in order. */
    List<Decision> validate(Map<String, Object> bindings, Map<String, String> variableErrors) {
        List<Decision> decisions = new ArrayList<>(validations.size());
        for (Validation v : validations) {
            decisions.add(validate(v, bindings, variableErrors));
        }
        return decisions;
    }

    private Decision validate(Validation v, Map<String, Object> bindings, Map<String, String> variableErrors) {
        String failedVariable = failedVariable(v.expression().source(), variableErrors);
        if (failedVariable != null) {
            return new Decision(onError(), "expression '" + v.expression().source() + "' resulted in error: "
                    + variableErrors.get(failedVariable), "");
        }
        Object result;
        try {
            result = evaluate(v.expression(), bindings);
        } catch (PolicyException e) {
            return new Decision(onError(), e.getMessage(), "");
        }
        if (Boolean.TRUE.equals(result)) {
            return new Decision(Outcome.ADMIT, "", "");
        }
        if (!(result instanceof Boolean)) {
            return new Decision(onError(), "expression '" + v.expression().source()
                    + "' resulted in error: no such overload", "");
        }
        return new Decision(Outcome.DENY, message(v, bindings), v.reason().isEmpty() ? "Invalid" : v.reason());
    }

    /**
     * kube's audit annotation evaluation: a non-empty string (trimmed, cut at 10 KiB) is published,
     * an empty one or null left out; an error is left out under {@code failurePolicy: Ignore} and
     * otherwise denies, as does a value of another type whatever the failure policy.
     */
    List<AuditResult> auditAnnotations(Map<String, Object> bindings, Map<String, String> variableErrors) {
        List<AuditResult> results = new ArrayList<>();
        for (AuditAnnotation a : auditAnnotations) {
            String source = a.valueExpression().source();
            String failedVariable = failedVariable(source, variableErrors);
            Object value;
            try {
                if (failedVariable != null) {
                    throw new PolicyException("expression '" + source + "' resulted in error: "
                            + variableErrors.get(failedVariable));
                }
                value = evaluate(a.valueExpression(), bindings);
            } catch (PolicyException e) {
                if (!failOpen) {
                    results.add(new AuditResult(a.key(), null, e.getMessage()));
                }
                continue;
            }
            if (value instanceof String str) {
                String trimmed = str.strip();
                if (!trimmed.isEmpty()) {
                    results.add(new AuditResult(a.key(), trimmed.length() > MAX_AUDIT_ANNOTATION_VALUE_LENGTH
                            ? trimmed.substring(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH) : trimmed, null));
                }
            } else if (value != null) {
                results.add(new AuditResult(a.key(), null, "valueExpression '" + source
                        + "' resulted in unsupported return type: " + celType(value)
                        + ". Return type must be either string or null."));
            }
        }
        return results;
    }

    /** The CEL type name of a result, as cel-go prints it. */
    static String celType(Object value) {
        if (value instanceof Boolean) {
            return "bool";
        }
        if (value instanceof Long) {
            return "int";
        }
        if (value instanceof Double) {
            return "double";
        }
        if (value instanceof Map<?, ?>) {
            return "map";
        }
        if (value instanceof List<?>) {
            return "list";
        }
        if (value instanceof byte[] || value.getClass().getSimpleName().contains("ByteString")) {
            return "bytes";
        }
        String name = value.getClass().getSimpleName();
        if (name.contains("UnsignedLong")) {
            return "uint";
        }
        if (name.equals("Duration") || name.equals("Timestamp")) {
            return "google.protobuf." + name;
        }
        if (value instanceof java.time.Instant) {
            return "google.protobuf.Timestamp";
        }
        return name;
    }

    /** messageExpression's string if it gives a usable one, else message, else the failed expression. */
    private static String message(Validation v, Map<String, Object> bindings) {
        if (v.messageExpression() != null) {
            try {
                if (evaluate(v.messageExpression(), bindings) instanceof String s) {
                    String trimmed = s.strip();
                    if (!trimmed.isEmpty() && !trimmed.contains("\n")
                            && trimmed.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_MESSAGE_BYTES) {
                        return trimmed;
                    }
                }
            } catch (PolicyException e) {
                // kube logs it and falls back to the message
            }
        }
        if (!v.message().isBlank()) {
            return v.message().strip();
        }
        return "failed expression: " + v.expression().source().strip();
    }

    /** The first failed variable an expression names ({@code variables.x}), or null. */
    private static String failedVariable(String source, Map<String, String> variableErrors) {
        for (String name : variableErrors.keySet()) {
            if (source.contains("variables." + name) || source.contains("variables[\"" + name + "\"]")
                    || source.contains("variables['" + name + "']")) {
                return name;
            }
        }
        return null;
    }

    private static Object evaluate(Compiled expression, Map<String, Object> bindings) throws PolicyException {
        try {
            return expression.evaluate(bindings);
        } catch (MatchConditions.EvaluationException e) {
            throw new PolicyException(e.getMessage());
        }
    }

    /** An evaluation or configuration failure, with kube's message. */
    static final class PolicyException extends Exception {
        PolicyException(String message) {
            super(message, null, false, false);
        }
    }
}
