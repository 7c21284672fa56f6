package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * kube's ValidateFlowSchema (pkg/apis/flowcontrol/validation) for a defaulted v1 object, with kube's field
 * paths and messages. The Store has validated the metadata.
 */
final class FlowSchemaValidation {
    static final int MAX_MATCHING_PRECEDENCE = 10000;
    static final List<String> DISTINGUISHER_METHODS = List.of("ByNamespace", "ByUser");
    static final List<String> SUBJECT_KINDS = List.of("Group", "ServiceAccount", "User");
    static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch", "proxy",
            "update", "watch");
    private static final String NAMESPACE_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

    private FlowSchemaValidation() {
    }

    /** ValidateFlowSchema (the same on update): the spec, the mandatory objects' fixed specs and the status. */
    static List<FieldError> validate(JsonNode fs) {
        String name = fs.path("metadata").path("name").asText("");
        JsonNode spec = fs.path("spec");
        List<FieldError> errs = new ArrayList<>(spec(name, spec));
        JsonNode mandatory = MandatoryConfiguration.FLOW_SCHEMA_SPECS.get(name);
        if (mandatory != null && !MandatoryConfiguration.semanticallyEqual(spec, mandatory)) {
            errs.add(FieldError.invalid("spec", new GoSyntax(spec.toString()),
                    "spec of '" + name + "' must equal the fixed value"));
        }
        errs.addAll(StatusValidation.conditions(fs.path("status")));
        return errs;
    }

    private static List<FieldError> spec(String name, JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        int precedence = spec.path("matchingPrecedence").asInt(0);
        if (precedence <= 0) {
            errs.add(FieldError.invalid("spec.matchingPrecedence", precedence, "must be a positive value"));
        }
        if (precedence > MAX_MATCHING_PRECEDENCE) {
            errs.add(FieldError.invalid("spec.matchingPrecedence", precedence,
                    "must not be greater than " + MAX_MATCHING_PRECEDENCE));
        }
        if (precedence == 1 && !MandatoryConfiguration.EXEMPT.equals(name)) {
            errs.add(FieldError.invalid("spec.matchingPrecedence", precedence,
                    "only the schema named 'exempt' may have matchingPrecedence 1"));
        }
        JsonNode method = spec.path("distinguisherMethod");
        if (present(method) && !DISTINGUISHER_METHODS.contains(method.path("type").asText(""))) {
            errs.add(FieldError.notSupported("spec.distinguisherMethod.type", new GoSyntax(
                    "flowcontrol.FlowDistinguisherMethod{Type:\"" + method.path("type").asText("") + "\"}"),
                    DISTINGUISHER_METHODS));
        }
        String level = spec.path("priorityLevelConfiguration").path("name").asText("");
        if (level.isEmpty()) {
            errs.add(FieldError.required("spec.priorityLevelConfiguration.name", "must reference a priority level"));
        } else {
            for (String msg : NameValidators.isDNS1123Subdomain(level)) {
                errs.add(FieldError.invalid("spec.priorityLevelConfiguration.name", level, msg));
            }
        }
        JsonNode rules = spec.path("rules");
        for (int i = 0; i < rules.size(); i++) {
            errs.addAll(rule(rules.get(i), "spec.rules[" + i + "]"));
        }
        return errs;
    }

    /** ValidateFlowSchemaPolicyRulesWithSubjects. */
    private static List<FieldError> rule(JsonNode rule, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode subjects = rule.path("subjects");
        if (subjects.isEmpty()) {
            errs.add(FieldError.required(path + ".subjects", "subjects must contain at least one value"));
        }
        for (int i = 0; i < subjects.size(); i++) {
            errs.addAll(subject(subjects.get(i), path + ".subjects[" + i + "]"));
        }
        JsonNode resourceRules = rule.path("resourceRules");
        JsonNode nonResourceRules = rule.path("nonResourceRules");
        if (resourceRules.isEmpty() && nonResourceRules.isEmpty()) {
            errs.add(FieldError.required(path, "at least one of resourceRules and nonResourceRules has to be non-empty"));
        }
        for (int i = 0; i < resourceRules.size(); i++) {
            errs.addAll(resourceRule(resourceRules.get(i), path + ".resourceRules[" + i + "]"));
        }
        for (int i = 0; i < nonResourceRules.size(); i++) {
            errs.addAll(nonResourceRule(nonResourceRules.get(i), path + ".nonResourceRules[" + i + "]"));
        }
        return errs;
    }

    /** ValidateFlowSchemaSubject: the member of the subject's kind is required, the other two forbidden. */
    private static List<FieldError> subject(JsonNode subject, String path) {
        List<FieldError> errs = new ArrayList<>();
        String kind = subject.path("kind").asText("");
        switch (kind) {
            case "ServiceAccount" -> {
                errs.addAll(serviceAccount(subject.path("serviceAccount"), path + ".serviceAccount"));
                forbidOther(subject, "user", "User", path, errs);
                forbidOther(subject, "group", "Group", path, errs);
            }
            case "User" -> {
                errs.addAll(named(subject.path("user"), path + ".user", "user is required when subject kind is 'User'"));
                forbidOther(subject, "serviceAccount", "ServiceAccount", path, errs);
                forbidOther(subject, "group", "Group", path, errs);
            }
            case "Group" -> {
                errs.addAll(named(subject.path("group"), path + ".group", "group is required when subject kind is 'Group'"));
                forbidOther(subject, "serviceAccount", "ServiceAccount", path, errs);
                forbidOther(subject, "user", "User", path, errs);
            }
            default -> errs.add(FieldError.notSupported(path + ".kind", kind, SUBJECT_KINDS));
        }
        return errs;
    }

    private static void forbidOther(JsonNode subject, String member, String kind, String path, List<FieldError> errs) {
        if (present(subject.path(member))) {
            errs.add(FieldError.forbidden(path + "." + member, member + " is forbidden when subject kind is not '" + kind + "'"));
        }
    }

    /** ValidateUserSubject and ValidateGroupSubject. */
    private static List<FieldError> named(JsonNode member, String path, String requiredMessage) {
        if (!present(member)) {
            return List.of(FieldError.required(path, requiredMessage));
        }
        return member.path("name").asText("").isEmpty() ? List.of(FieldError.required(path + ".name", "")) : List.of();
    }

    /** ValidateServiceAccountSubject: a name ({@code *} for all) and a namespace. */
    private static List<FieldError> serviceAccount(JsonNode sa, String path) {
        if (!present(sa)) {
            return List.of(FieldError.required(path, "serviceAccount is required when subject kind is 'ServiceAccount'"));
        }
        List<FieldError> errs = new ArrayList<>();
        String name = sa.path("name").asText("");
        if (name.isEmpty()) {
            errs.add(FieldError.required(path + ".name", ""));
        } else if (!"*".equals(name)) {
            NameValidators.isDNS1123Subdomain(name).forEach(m -> errs.add(FieldError.invalid(path + ".name", name, m)));
        }
        String namespace = sa.path("namespace").asText("");
        if (namespace.isEmpty()) {
            errs.add(FieldError.required(path + ".namespace", "must specify namespace for service account"));
        } else {
            NameValidators.isDNS1123Label(namespace).forEach(m -> errs.add(FieldError.invalid(path + ".namespace", namespace, m)));
        }
        return errs;
    }

    /** ValidateFlowSchemaResourcePolicyRule. */
    private static List<FieldError> resourceRule(JsonNode rule, String path) {
        List<FieldError> errs = new ArrayList<>(verbs(strings(rule.path("verbs")), path + ".verbs"));
        errs.addAll(ruleList(strings(rule.path("apiGroups")), true, path + ".apiGroups",
                "resource rules must supply at least one api group", "api groups", v -> List.of()));
        errs.addAll(ruleList(strings(rule.path("resources")), true, path + ".resources",
                "resource rules must supply at least one resource", "resources", v -> List.of()));
        errs.addAll(ruleList(strings(rule.path("namespaces")), !rule.path("clusterScope").asBoolean(false),
                path + ".namespaces", "resource rules that are not cluster scoped must supply at least one namespace",
                "namespaces", ns -> NameValidators.isDNS1123Label(ns).stream().map(m -> NAMESPACE_INTRO + m).toList()));
        return errs;
    }

    /** ValidateFlowSchemaNonResourcePolicyRule. */
    private static List<FieldError> nonResourceRule(JsonNode rule, String path) {
        List<FieldError> errs = new ArrayList<>(verbs(strings(rule.path("verbs")), path + ".verbs"));
        errs.addAll(ruleList(strings(rule.path("nonResourceURLs")), true, path + ".nonResourceURLs",
                "nonResourceURLs must contain at least one value", "non-resource URLs", url -> {
                    String why = nonResourceURLProblem(url);
                    return why == null ? List.of() : List.of(why);
                }));
        return errs;
    }

    /**
     * One list of a rule as kube checks it: not empty when {@code required}, {@code *} only alone, and
     * otherwise each member with {@code memberProblems} (which returns why it is invalid).
     */
    private static List<FieldError> ruleList(List<String> values, boolean required, String path, String requiredMessage,
                                             String what, Function<String, List<String>> memberProblems) {
        if (values.isEmpty() && required) {
            return List.of(FieldError.required(path, requiredMessage));
        }
        if (values.contains("*")) {
            return values.size() > 1 ? List.of(FieldError.invalid(path, GoSyntax.strings(values),
                    "if '*' is present, must not specify other " + what)) : List.of();
        }
        List<FieldError> errs = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            String at = path + "[" + i + "]";
            memberProblems.apply(value).forEach(m -> errs.add(FieldError.invalid(at, value, m)));
        }
        return errs;
    }

    /** The verbs of either kind of rule: one or more supported verbs, or {@code *} alone. */
    private static List<FieldError> verbs(List<String> verbs, String path) {
        if (verbs.isEmpty()) {
            return List.of(FieldError.required(path, "verbs must contain at least one value"));
        }
        if (verbs.contains("*")) {
            return verbs.size() > 1 ? List.of(FieldError.invalid(path, GoSyntax.strings(verbs), "if '*' is present, must not specify other verbs"))
                    : List.of();
        }
        return VERBS.containsAll(verbs) ? List.of() : List.of(FieldError.notSupported(path, GoSyntax.strings(verbs), VERBS));
    }

    /**
     * ValidateNonResourceURLPath: a path from the root, without blanks or double slashes, whose only
     * wildcard is a final {@code /*}; null when valid.
     */
    static String nonResourceURLProblem(String path) {
        if (path.isEmpty()) {
            return "must not be empty";
        }
        if (path.equals("/")) {
            return null;
        }
        if (!path.startsWith("/")) {
            return "must start with slash";
        }
        if (path.contains(" ")) {
            return "must not contain white-space";
        }
        if (path.contains("//")) {
            return "must not contain double slash";
        }
        long wildcards = path.chars().filter(c -> c == '*').count();
        if (wildcards > 1 || wildcards == 1 && !path.endsWith("/*")) {
            return "wildcard can only do suffix matching";
        }
        return null;
    }

    /** Whether an optional member is set (kube's non-nil pointer). */
    static boolean present(JsonNode n) {
        return n != null && !n.isMissingNode() && !n.isNull();
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
