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
import io.kubelix.support.webhook.validation.ClientConfigValidation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * kube's mutating and validating webhook configuration strategies: admissionregistration/v1
 * defaults on every webhook and kube's validation of each (a fully qualified unique name, rules,
 * policies, sideEffects and admissionReviewVersions required, a timeout of 1 to 30 seconds, and a
 * clientConfig with either a URL or a service). The webhooks are stored, never called.
 */
final class WebhookConfigurationStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
    static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
    static final List<String> SIDE_EFFECTS = List.of("None", "NoneOnDryRun");
    static final List<String> REINVOCATION_POLICIES = List.of("IfNeeded", "Never");
    static final List<String> REVIEW_VERSIONS = List.of("v1", "v1beta1");
    private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    private final boolean mutating;

    private WebhookConfigurationStrategy(boolean mutating) {
        this.mutating = mutating;
    }

    static WebhookConfigurationStrategy mutating() {
        return new WebhookConfigurationStrategy(true);
    }

    static WebhookConfigurationStrategy validating() {
        return new WebhookConfigurationStrategy(false);
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
    }

    /** SetDefaults_ValidatingWebhook / SetDefaults_MutatingWebhook, SetDefaults_Rule, SetDefaults_ServiceReference. */
    void setDefaults(ObjectNode obj) {
        for (JsonNode w : obj.path("webhooks")) {
            if (!(w instanceof ObjectNode hook)) {
                continue;
            }
            putIfAbsent(hook, "failurePolicy", "Fail");
            putIfAbsent(hook, "matchPolicy", "Equivalent");
            if (!hook.hasNonNull("namespaceSelector")) {
                hook.putObject("namespaceSelector");
            }
            if (!hook.hasNonNull("objectSelector")) {
                hook.putObject("objectSelector");
            }
            if (!hook.hasNonNull("timeoutSeconds")) {
                hook.put("timeoutSeconds", 10);
            }
            if (mutating) {
                putIfAbsent(hook, "reinvocationPolicy", "Never");
            }
            for (JsonNode rule : hook.path("rules")) {
                if (rule instanceof ObjectNode r) {
                    putIfAbsent(r, "scope", "*");
                }
            }
            if (hook.path("clientConfig").get("service") instanceof ObjectNode service && !service.hasNonNull("port")) {
                service.put("port", 443);
            }
        }
    }

    static void putIfAbsent(ObjectNode obj, String field, String value) {
        if (!obj.hasNonNull(field)) {
            obj.put(field, value);
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode hook : obj.path("webhooks")) {
            String p = "webhooks[" + i++ + "]";
            String name = hook.path("name").asText("");
            if (!name.isEmpty() && !names.add(name)) {
                errs.add(FieldError.duplicate(p + ".name", name));
            }
            errs.addAll(webhook(hook, p));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }

    private List<FieldError> webhook(JsonNode hook, String p) {
        List<FieldError> errs = new ArrayList<>(fullyQualifiedName(hook.path("name").asText(""), p + ".name"));
        int j = 0;
        for (JsonNode rule : hook.path("rules")) {
            errs.addAll(RuleValidation.ruleWithOperations(rule, p + ".rules[" + j++ + "]"));
        }
        errs.addAll(RuleValidation.oneOf(hook.get("failurePolicy"), p + ".failurePolicy", FAILURE_POLICIES));
        errs.addAll(RuleValidation.oneOf(hook.get("matchPolicy"), p + ".matchPolicy", MATCH_POLICIES));
        JsonNode sideEffects = hook.get("sideEffects");
        if (sideEffects == null || sideEffects.isNull()) {
            errs.add(FieldError.required(p + ".sideEffects", "must specify one of " + String.join(", ", SIDE_EFFECTS)));
        } else {
            errs.addAll(RuleValidation.oneOf(sideEffects, p + ".sideEffects", SIDE_EFFECTS));
        }
        JsonNode timeout = hook.get("timeoutSeconds");
        if (timeout != null && !timeout.isNull() && (timeout.asLong() < 1 || timeout.asLong() > 30)) {
            errs.add(FieldError.invalid(p + ".timeoutSeconds", timeout.asLong(), "the timeout value must be between 1 and 30 seconds"));
        }
        errs.addAll(MetadataValidators.validateLabelSelector(hook.get("namespaceSelector"), p + ".namespaceSelector"));
        errs.addAll(MetadataValidators.validateLabelSelector(hook.get("objectSelector"), p + ".objectSelector"));
        if (mutating) {
            errs.addAll(RuleValidation.oneOf(hook.get("reinvocationPolicy"), p + ".reinvocationPolicy", REINVOCATION_POLICIES));
        }
        errs.addAll(admissionReviewVersions(RuleValidation.strings(hook.path("admissionReviewVersions")),
                p + ".admissionReviewVersions"));
        errs.addAll(ClientConfigValidation.clientConfig(hook.path("clientConfig"), p + ".clientConfig"));
        errs.addAll(RuleValidation.matchConditions(hook.path("matchConditions"), p + ".matchConditions"));
        return errs;
    }

    /** IsFullyQualifiedName: a DNS subdomain with at least three segments. */
    static List<FieldError> fullyQualifiedName(String name, String p) {
        if (name.isEmpty()) {
            return List.of(FieldError.required(p, ""));
        }
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        List<String> msgs = NameValidators.isDNS1123Subdomain(n);
        if (!msgs.isEmpty()) {
            return List.of(FieldError.invalid(p, n, String.join(",", msgs)));
        }
        if (n.split("\\.", -1).length < 3) {
            return List.of(FieldError.invalid(p, n, "should be a domain with at least three segments separated by dots"));
        }
        return List.of();
    }

    /** At least one version this server's kube would send (v1, v1beta1), each a DNS-1035 label, no duplicates. */
    static List<FieldError> admissionReviewVersions(List<String> versions, String p) {
        List<FieldError> errs = new ArrayList<>();
        if (versions.isEmpty()) {
            errs.add(FieldError.required(p, "must specify one of " + String.join(", ", REVIEW_VERSIONS)));
            return errs;
        }
        Set<String> seen = new HashSet<>();
        boolean accepted = false;
        for (int i = 0; i < versions.size(); i++) {
            String v = versions.get(i);
            if (!seen.add(v)) {
                errs.add(FieldError.invalid(p + "[" + i + "]", v, "duplicate version"));
                continue;
            }
            if (v.length() > 63 || !DNS1035_LABEL.matcher(v).matches()) {
                errs.add(FieldError.invalid(p + "[" + i + "]", v, "a DNS-1035 label must consist of lower case "
                        + "alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric "
                        + "character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"));
            }
            accepted |= REVIEW_VERSIONS.contains(v);
        }
        if (!accepted) {
            errs.add(FieldError.invalid(p, GoSyntax.strings(versions), "must include at least one of " + String.join(", ", REVIEW_VERSIONS)));
        }
        return errs;
    }
}
