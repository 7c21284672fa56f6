package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.support.admission.PolicyEnvironment;
import io.kubelix.support.cel.CelEnvironment;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's validatingadmissionpolicy strategy: failurePolicy Fail and matchConstraints defaults,
 * the status kept from the stored object, and kube's validation of the fields users write (match
 * constraints with at least one resource rule, at least one validation or audit annotation, each
 * with an expression, known reasons, one-line messages, audit annotation keys that make qualified
 * names under the policy's, a complete paramKind, named variables). Of the CEL expressions, audit
 * annotations' value expressions are compiled, as kube compiles them; the others are stored without
 * being compiled.
 */
final class ValidatingAdmissionPolicyStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> REASONS = List.of("Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized");
    private static final Pattern CEL_IDENTIFIER = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");
    /** kube's {@code maxAuditAnnotations} and {@code maxAuditAnnotationValueExpressionLength}. */
    private static final int MAX_AUDIT_ANNOTATIONS = 20;
    private static final int MAX_AUDIT_ANNOTATION_EXPRESSION_BYTES = 5 * 1024;
    /** What kube's {@code AuditAnnotationCondition} may evaluate to. */
    private static final List<String> AUDIT_ANNOTATION_TYPES = List.of("string", "null_type");

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.remove("status");
        setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
        setDefaults(obj);
    }

    static void setDefaults(ObjectNode obj) {
        if (obj.get("spec") instanceof ObjectNode spec) {
            WebhookConfigurationStrategy.putIfAbsent(spec, "failurePolicy", "Fail");
            MatchResources.setDefaults(spec.get("matchConstraints"));
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>(policySpec(spec));
        if (spec.path("validations").isEmpty() && spec.path("auditAnnotations").isEmpty()) {
            errs.add(FieldError.required("spec.validations", "validations or auditAnnotations must contain at least one item"));
            errs.add(FieldError.required("spec.auditAnnotations", "validations or auditAnnotations must contain at least one item"));
        }
        int i = 0;
        for (JsonNode v : spec.path("validations")) {
            errs.addAll(validation(v, "spec.validations[" + i++ + "]"));
        }
        errs.addAll(auditAnnotations(obj.path("metadata").path("name").asText(""), spec));
        errs.addAll(variables(spec.path("variables")));
        return errs;
    }

    /**
     * What validating and mutating policies validate alike: a failure policy, a complete paramKind,
     * match constraints with at least one resource rule, and the match conditions.
     */
    static List<FieldError> policySpec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode failurePolicy = spec.get("failurePolicy");
        if (failurePolicy == null || failurePolicy.isNull()) {
            errs.add(FieldError.required("spec.failurePolicy", ""));
        } else {
            errs.addAll(RuleValidation.oneOf(failurePolicy, "spec.failurePolicy", WebhookConfigurationStrategy.FAILURE_POLICIES));
        }
        errs.addAll(paramKind(spec.get("paramKind")));
        JsonNode match = spec.get("matchConstraints");
        if (match == null || match.isNull()) {
            errs.add(FieldError.required("spec.matchConstraints", ""));
        } else {
            errs.addAll(MatchResources.validate(match, "spec.matchConstraints"));
            if (match.path("resourceRules").isEmpty()) {
                errs.add(FieldError.required("spec.matchConstraints.resourceRules", ""));
            }
        }
        errs.addAll(RuleValidation.matchConditions(spec.path("matchConditions"), "spec.matchConditions"));
        return errs;
    }

    /** kube's validateVariable for each of a policy's variables: a CEL identifier and an expression. */
    static List<FieldError> variables(JsonNode variables) {
        List<FieldError> errs = new ArrayList<>();
        int i = 0;
        for (JsonNode v : variables) {
            String p = "spec.variables[" + i++ + "]";
            String name = v.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(p + ".name", "name is not specified"));
            } else if (!CEL_IDENTIFIER.matcher(name).matches()) {
                errs.add(FieldError.invalid(p + ".name", name, "name is not a valid CEL identifier"));
            }
            if (v.path("expression").asText("").isBlank()) {
                errs.add(FieldError.required(p + ".expression", "expression is not specified"));
            }
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }

    /**
     * kube's validation of audit annotations: at most 20, each key unique and, after the policy's
     * name and a slash, a qualified name, each value expression given, at most 5 KiB, and compiling
     * to a string or null in the policy's environment (its params and variables included).
     */
    private static List<FieldError> auditAnnotations(String policyName, JsonNode spec) {
        JsonNode annotations = spec.path("auditAnnotations");
        List<FieldError> errs = new ArrayList<>();
        CelEnvironment environment = null;
        if (annotations.size() > MAX_AUDIT_ANNOTATIONS) {
            errs.add(FieldError.invalid("spec.auditAnnotations", auditAnnotationsGoSyntax(annotations),
                    "must not have more than " + MAX_AUDIT_ANNOTATIONS + " auditAnnotations"));
        }
        java.util.Set<String> keys = new java.util.HashSet<>();
        int i = 0;
        for (JsonNode a : annotations) {
            String p = "spec.auditAnnotations[" + i++ + "]";
            String key = a.path("key").asText("");
            if (policyName.isEmpty()) {
                errs.add(FieldError.invalid(p + ".key", key, "requires metadata.name be non-empty"));
            } else {
                String qualified = policyName + "/" + key;
                for (String msg : NameValidators.isQualifiedName(qualified)) {
                    errs.add(FieldError.invalid(p + ".key", qualified, msg));
                }
            }
            String value = a.path("valueExpression").asText("").strip();
            if (value.isEmpty()) {
                errs.add(FieldError.required(p + ".valueExpression", "valueExpression is not specified"));
            } else if (value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_AUDIT_ANNOTATION_EXPRESSION_BYTES) {
                errs.add(FieldError.required(p + ".valueExpression", "must not exceed "
                        + MAX_AUDIT_ANNOTATION_EXPRESSION_BYTES + " bytes in length"));
            } else {
                if (environment == null) {
                    JsonNode variables = spec.path("variables");
                    environment = PolicyEnvironment.of(null, spec.hasNonNull("paramKind"), null, variables,
                            !variables.isEmpty());
                }
                String error = PolicyEnvironment.compileError(environment, value, AUDIT_ANNOTATION_TYPES);
                if (error != null) {
                    errs.add(FieldError.invalid(p + ".valueExpression", a.path("valueExpression").asText(""), error));
                }
            }
            if (!keys.add(key)) {
                errs.add(FieldError.duplicate(p + ".key", key));
            }
        }
        return errs;
    }

    /** The annotations as Go's {@code %#v} prints them in kube's field error. */
    private static GoSyntax auditAnnotationsGoSyntax(JsonNode annotations) {
        List<String> items = new ArrayList<>();
        for (JsonNode a : annotations) {
            items.add("admissionregistration.AuditAnnotation{Key:" + goQuoted(a.path("key").asText("")).text()
                    + ", ValueExpression:" + goQuoted(a.path("valueExpression").asText("")).text() + "}");
        }
        return new GoSyntax("[]admissionregistration.AuditAnnotation{" + String.join(", ", items) + "}");
    }

    private static List<FieldError> paramKind(JsonNode kind) {
        List<FieldError> errs = new ArrayList<>();
        if (kind == null || kind.isNull()) {
            return errs;
        }
        if (kind.path("kind").asText("").isEmpty()) {
            errs.add(FieldError.required("spec.paramKind.kind", ""));
        }
        String apiVersion = kind.path("apiVersion").asText("");
        if (apiVersion.isEmpty()) {
            errs.add(FieldError.required("spec.paramKind.apiVersion", ""));
        } else if (apiVersion.chars().filter(c -> c == '/').count() > 1) {
            errs.add(FieldError.invalid("spec.paramKind.apiVersion", apiVersion, "unexpected GroupVersion string: " + apiVersion));
        }
        return errs;
    }

    /** A string as Go's %q prints it, line breaks escaped, as kube's field error shows such a message. */
    static GoSyntax goQuoted(String s) {
        return new GoSyntax("\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
                .replace("\r", "\\r").replace("\t", "\\t") + "\"");
    }

    private static List<FieldError> validation(JsonNode v, String p) {
        List<FieldError> errs = new ArrayList<>();
        if (v.path("expression").asText("").isBlank()) {
            errs.add(FieldError.required(p + ".expression", "expression is not specified"));
        }
        String messageExpression = v.path("messageExpression").asText("");
        if (!messageExpression.isEmpty() && messageExpression.isBlank()) {
            errs.add(FieldError.invalid(p + ".messageExpression", messageExpression, "must be non-empty if specified"));
        }
        String message = v.path("message").asText("");
        if (!message.isEmpty() && message.isBlank()) {
            errs.add(FieldError.invalid(p + ".message", message, "message must be non-empty if specified"));
        } else if (message.strip().contains("\n") || message.strip().contains("\r")) {
            errs.add(FieldError.invalid(p + ".message", goQuoted(message), "message must not contain line breaks"));
        }
        errs.addAll(RuleValidation.oneOf(v.get("reason"), p + ".reason", REASONS));
        return errs;
    }
}
