package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's RBAC validation (pkg/apis/rbac/validation): policy rules, role references and subjects,
 * with kube's field paths and messages.
 */
final class RbacValidation {
    static final String GROUP = "rbac.authorization.k8s.io";
    static final String USER = "User";
    static final String GROUP_KIND = "Group";
    static final String SERVICE_ACCOUNT = "ServiceAccount";

    private RbacValidation() {
    }

    /** ValidatePolicyRule for each of {@code rules}; non-resource URLs only where {@code namespaced} is false. */
    static List<FieldError> rules(JsonNode rules, boolean namespaced) {
        List<FieldError> errs = new ArrayList<>();
        int i = 0;
        for (JsonNode rule : rules) {
            String p = "rules[" + i++ + "]";
            if (rule.path("verbs").isEmpty()) {
                errs.add(FieldError.required(p + ".verbs", "verbs must contain at least one value"));
            }
            JsonNode urls = rule.path("nonResourceURLs");
            if (!urls.isEmpty()) {
                if (namespaced) {
                    errs.add(FieldError.invalid(p + ".nonResourceURLs", GoSyntax.strings(strings(urls)),
                            "namespaced rules cannot apply to non-resource URLs"));
                }
                if (!rule.path("apiGroups").isEmpty() || !rule.path("resources").isEmpty()) {
                    errs.add(FieldError.invalid(p + ".nonResourceURLs", GoSyntax.strings(strings(urls)),
                            "rules cannot apply to both regular resources and non-resource URLs"));
                }
                continue;
            }
            if (rule.path("apiGroups").isEmpty()) {
                errs.add(FieldError.required(p + ".apiGroups", "resource rules must supply at least one api group"));
            }
            if (rule.path("resources").isEmpty()) {
                errs.add(FieldError.required(p + ".resources", "resource rules must supply at least one resource"));
            }
        }
        return errs;
    }

    /** A clusterrole's aggregationRule: at least one selector, each a valid label selector. */
    static List<FieldError> aggregationRule(JsonNode rule) {
        List<FieldError> errs = new ArrayList<>();
        if (rule == null || rule.isNull() || rule.isMissingNode()) {
            return errs;
        }
        JsonNode selectors = rule.path("clusterRoleSelectors");
        if (selectors.isEmpty()) {
            errs.add(FieldError.required("aggregationRule.clusterRoleSelectors",
                    "at least one clusterRoleSelector required if aggregationRule is non-nil"));
        }
        int i = 0;
        for (JsonNode selector : selectors) {
            errs.addAll(MetadataValidators.validateLabelSelector(selector, "aggregationRule.clusterRoleSelectors[" + i++ + "]"));
        }
        return errs;
    }

    /** A binding's roleRef: kube's group, a kind in {@code kinds}, a path-segment name. */
    static List<FieldError> roleRef(JsonNode ref, List<String> kinds) {
        List<FieldError> errs = new ArrayList<>();
        String apiGroup = ref.path("apiGroup").asText("");
        if (!GROUP.equals(apiGroup)) {
            errs.add(FieldError.notSupported("roleRef.apiGroup", apiGroup, List.of(GROUP)));
        }
        String kind = ref.path("kind").asText("");
        if (!kinds.contains(kind)) {
            errs.add(FieldError.notSupported("roleRef.kind", kind, kinds));
        }
        String name = ref.path("name").asText("");
        if (name.isEmpty()) {
            errs.add(FieldError.required("roleRef.name", ""));
        } else {
            NameValidators.isValidPathSegmentName(name).forEach(m -> errs.add(FieldError.invalid("roleRef.name", name, m)));
        }
        return errs;
    }

    /** ValidateRoleBindingSubject for each subject; a ServiceAccount of a cluster binding needs a namespace. */
    static List<FieldError> subjects(JsonNode subjects, boolean namespaced) {
        List<FieldError> errs = new ArrayList<>();
        int i = 0;
        for (JsonNode s : subjects) {
            String p = "subjects[" + i++ + "]";
            String name = s.path("name").asText("");
            String apiGroup = s.path("apiGroup").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(p + ".name", ""));
            }
            String kind = s.path("kind").asText("");
            switch (kind) {
                case SERVICE_ACCOUNT -> {
                    if (!name.isEmpty()) {
                        NameValidators.isDNS1123Subdomain(name).forEach(m -> errs.add(FieldError.invalid(p + ".name", name, m)));
                    }
                    if (!apiGroup.isEmpty()) {
                        errs.add(FieldError.notSupported(p + ".apiGroup", apiGroup, List.of("")));
                    }
                    if (!namespaced && s.path("namespace").asText("").isEmpty()) {
                        errs.add(FieldError.required(p + ".namespace", ""));
                    }
                }
                case USER, GROUP_KIND -> {
                    if (!GROUP.equals(apiGroup)) {
                        errs.add(FieldError.notSupported(p + ".apiGroup", apiGroup, List.of(GROUP)));
                    }
                }
                default -> errs.add(FieldError.notSupported(p + ".kind", kind, List.of(SERVICE_ACCOUNT, USER, GROUP_KIND)));
            }
        }
        return errs;
    }

    /** A roleRef as Go's %#v prints the struct in kube's "cannot change roleRef" error. */
    static GoSyntax roleRefGo(JsonNode ref) {
        return new GoSyntax("rbac.RoleRef{APIGroup:" + quote(ref.path("apiGroup").asText("")) + ", Kind:"
                + quote(ref.path("kind").asText("")) + ", Name:" + quote(ref.path("name").asText("")) + "}");
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
