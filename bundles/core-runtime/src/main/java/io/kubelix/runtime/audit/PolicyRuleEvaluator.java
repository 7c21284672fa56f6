package io.kubelix.runtime.audit;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * kube's policyRuleEvaluator: the level of a request is the first matching rule's, with that
 * rule's stages to omit (the policy's and its own) and its choice of omitting managed fields (its
 * own, else the policy's); a request no rule matches is {@link Level#None}.
 */
public final class PolicyRuleEvaluator {
    private final Policy policy;
    private final List<Set<Stage>> ruleStages;

    /**
     * What the policy says of one request.
     *
     * @param level             the level to audit it at
     * @param omitStages        the stages no event is sent for
     * @param omitManagedFields whether its objects are recorded without {@code metadata.managedFields}
     */
    public record RequestAuditConfig(Level level, Set<Stage> omitStages, boolean omitManagedFields) {
    }

    public PolicyRuleEvaluator(Policy policy) {
        this.policy = policy;
        // NewPolicyRuleEvaluator: each rule omits the policy's stages and its own.
        this.ruleStages = policy.rules().stream().map(r -> {
            Set<Stage> s = EnumSet.noneOf(Stage.class);
            s.addAll(policy.omitStages());
            s.addAll(r.omitStages());
            return Set.copyOf(s);
        }).toList();
    }

    /** The rules' verdict on a request by {@code user} (null when unauthenticated) described by {@code info}. */
    public RequestAuditConfig evaluate(UserInfo user, RequestInfo info) {
        List<Policy.Rule> rules = policy.rules();
        for (int i = 0; i < rules.size(); i++) {
            Policy.Rule rule = rules.get(i);
            if (matches(rule, user, info)) {
                return new RequestAuditConfig(rule.level(), ruleStages.get(i),
                        rule.omitManagedFields() != null ? rule.omitManagedFields() : policy.omitManagedFields());
            }
        }
        return new RequestAuditConfig(Level.None, policy.omitStages(), policy.omitManagedFields());
    }

    static boolean matches(Policy.Rule r, UserInfo user, RequestInfo info) {
        if (!r.users().isEmpty() && (user == null || !r.users().contains(user.name()))) {
            return false;
        }
        if (!r.userGroups().isEmpty()) {
            if (user == null || user.groups().stream().noneMatch(r.userGroups()::contains)) {
                return false;
            }
        }
        if (!r.verbs().isEmpty() && !r.verbs().contains(info.verb())) {
            return false;
        }
        if (!r.namespaces().isEmpty() || !r.resources().isEmpty()) {
            return matchesResource(r, info);
        }
        if (!r.nonResourceURLs().isEmpty()) {
            return matchesNonResource(r, info);
        }
        return true;
    }

    private static boolean matchesNonResource(Policy.Rule r, RequestInfo info) {
        if (info.resourceRequest()) {
            return false;
        }
        for (String spec : r.nonResourceURLs()) {
            if (spec.equals("*") || spec.equals(info.path())
                    || (spec.endsWith("*") && info.path().startsWith(trimTrailingStars(spec)))) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesResource(Policy.Rule r, RequestInfo info) {
        if (!info.resourceRequest()) {
            return false;
        }
        // Cluster-scoped resources have the namespace "".
        if (!r.namespaces().isEmpty() && !r.namespaces().contains(info.namespace())) {
            return false;
        }
        if (r.resources().isEmpty()) {
            return true;
        }
        String resource = info.resource();
        String subresource = info.subresource();
        String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
        for (Policy.GroupResources gr : r.resources()) {
            if (!gr.group().equals(info.apiGroup())) {
                continue;
            }
            if (gr.resources().isEmpty()) {
                return true;
            }
            if (!gr.resourceNames().isEmpty() && !gr.resourceNames().contains(info.name())) {
                continue;
            }
            for (String res : gr.resources()) {
                if (res.equals(combined) || res.equals("*")) {
                    return true;
                }
                if (!subresource.isEmpty() && res.startsWith("*/") && subresource.equals(res.substring(2))) {
                    return true;
                }
                if (res.endsWith("/*") && resource.equals(res.substring(0, res.length() - 2))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String trimTrailingStars(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '*') {
            end--;
        }
        return s.substring(0, end);
    }
}
