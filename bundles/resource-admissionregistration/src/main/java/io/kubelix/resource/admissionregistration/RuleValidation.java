package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's admissionregistration rule validation (ValidateRuleWithOperations and validateRule):
 * which operations, API groups, versions, resources and scope a webhook or policy matches.
 */
final class RuleValidation {
    static final List<String> OPERATIONS = List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
    static final List<String> SCOPES = List.of("*", "Cluster", "Namespaced");
    static final int MAX_MATCH_CONDITIONS = 64;

    private RuleValidation() {
    }

    /** A RuleWithOperations under {@code p} (such as {@code webhooks[0].rules[1]}). */
    static List<FieldError> ruleWithOperations(JsonNode rule, String p) {
        List<FieldError> errs = new ArrayList<>();
        List<String> ops = strings(rule.path("operations"));
        if (ops.isEmpty()) {
            errs.add(FieldError.required(p + ".operations", ""));
        }
        if (ops.size() > 1 && ops.contains("*")) {
            errs.add(FieldError.invalid(p + ".operations", GoSyntax.strings(ops), "if '*' is present, must not specify other operations"));
        }
        for (int i = 0; i < ops.size(); i++) {
            if (!OPERATIONS.contains(ops.get(i))) {
                errs.add(FieldError.notSupported(p + ".operations[" + i + "]", ops.get(i), OPERATIONS));
            }
        }
        errs.addAll(rule(rule, p));
        return errs;
    }

    /** A NamedRuleWithOperations: a rule and resource names that are path segments. */
    static List<FieldError> namedRuleWithOperations(JsonNode rule, String p) {
        List<FieldError> errs = ruleWithOperations(rule, p);
        List<String> names = strings(rule.path("resourceNames"));
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            for (String msg : NameValidators.isValidPathSegmentName(name)) {
                errs.add(FieldError.invalid(p + ".resourceNames[" + i + "]", name, msg));
            }
        }
        return errs;
    }

    private static List<FieldError> rule(JsonNode rule, String p) {
        List<FieldError> errs = new ArrayList<>();
        List<String> groups = strings(rule.path("apiGroups"));
        if (groups.isEmpty()) {
            errs.add(FieldError.required(p + ".apiGroups", ""));
        }
        if (groups.size() > 1 && groups.contains("*")) {
            errs.add(FieldError.invalid(p + ".apiGroups", GoSyntax.strings(groups), "if '*' is present, must not specify other API groups"));
        }
        List<String> versions = strings(rule.path("apiVersions"));
        if (versions.isEmpty()) {
            errs.add(FieldError.required(p + ".apiVersions", ""));
        }
        if (versions.size() > 1 && versions.contains("*")) {
            errs.add(FieldError.invalid(p + ".apiVersions", GoSyntax.strings(versions), "if '*' is present, must not specify other API versions"));
        }
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).isEmpty()) {
                errs.add(FieldError.required(p + ".apiVersions[" + i + "]", ""));
            }
        }
        errs.addAll(resources(strings(rule.path("resources")), p + ".resources"));
        JsonNode scope = rule.get("scope");
        if (scope != null && !scope.isNull() && !SCOPES.contains(scope.asText())) {
            errs.add(FieldError.notSupported(p + ".scope", scope.asText(), SCOPES));
        }
        return errs;
    }

    /** validateResources: {@code *}, {@code *&#47;*}, {@code x/*} and {@code *&#47;x} may not overlap other entries. */
    private static List<FieldError> resources(List<String> resources, String p) {
        List<FieldError> errs = new ArrayList<>();
        if (resources.isEmpty()) {
            errs.add(FieldError.required(p, ""));
        }
        Set<String> wildcardSubresources = new HashSet<>();
        Set<String> wildcardResources = new HashSet<>();
        boolean doubleWildcard = false;
        boolean singleWildcard = false;
        boolean withoutSubresource = false;
        for (int i = 0; i < resources.size(); i++) {
            String resSub = resources.get(i);
            if (resSub.isEmpty()) {
                errs.add(FieldError.required(p + "[" + i + "]", ""));
                continue;
            }
            doubleWildcard |= resSub.equals("*/*");
            singleWildcard |= resSub.equals("*");
            int slash = resSub.indexOf('/');
            if (slash < 0) {
                withoutSubresource |= !resSub.equals("*");
                continue;
            }
            String res = resSub.substring(0, slash);
            String sub = resSub.substring(slash + 1);
            if (wildcardSubresources.contains(res)) {
                errs.add(FieldError.invalid(p + "[" + i + "]", resSub, "if '" + res + "/*' is present, must not specify " + resSub));
            }
            if (wildcardResources.contains(sub)) {
                errs.add(FieldError.invalid(p + "[" + i + "]", resSub, "if '*/" + sub + "' is present, must not specify " + resSub));
            }
            if (sub.equals("*")) {
                wildcardSubresources.add(res);
            }
            if (res.equals("*")) {
                wildcardResources.add(sub);
            }
        }
        if (resources.size() > 1 && doubleWildcard) {
            errs.add(FieldError.invalid(p, GoSyntax.strings(resources), "if '*/*' is present, must not specify other resources"));
        }
        if (singleWildcard && withoutSubresource) {
            errs.add(FieldError.invalid(p, GoSyntax.strings(resources),
                    "if '*' is present, must not specify other resources without subresources"));
        }
        return errs;
    }

    /**
     * validateMatchConditions of a webhook or policy: at most 64, each with an expression (stored
     * uncompiled) and a unique qualified name.
     */
    static List<FieldError> matchConditions(JsonNode conditions, String p) {
        List<FieldError> errs = new ArrayList<>();
        if (conditions.size() > MAX_MATCH_CONDITIONS) {
            errs.add(new FieldError(FieldError.Type.TOO_MANY, p, conditions.size(),
                    "must have at most " + MAX_MATCH_CONDITIONS + " items"));
        }
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode c : conditions) {
            String at = p + "[" + i++ + "]";
            if (c.path("expression").asText("").isBlank()) {
                errs.add(FieldError.required(at + ".expression", ""));
            }
            String name = c.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(at + ".name", ""));
                continue;
            }
            NameValidators.isQualifiedName(name).forEach(m -> errs.add(FieldError.invalid(at + ".name", name, m)));
            if (!names.add(name)) {
                errs.add(FieldError.duplicate(at + ".name", name));
            }
        }
        return errs;
    }

    /** A value that must be one of {@code supported} when present. */
    static List<FieldError> oneOf(JsonNode value, String p, List<String> supported) {
        if (value == null || value.isNull() || supported.contains(value.asText())) {
            return List.of();
        }
        return List.of(FieldError.notSupported(p, value.asText(), supported));
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
