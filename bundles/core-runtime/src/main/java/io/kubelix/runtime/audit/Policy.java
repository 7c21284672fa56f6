package io.kubelix.runtime.audit;

import java.util.List;
import java.util.Set;

/**
 * An {@code audit.k8s.io/v1} Policy: the rules deciding each request's level, tried in order, the
 * first that matches winning; a request no rule matches is not audited.
 *
 * @param rules             the rules, in order
 * @param omitStages        stages no event is sent for, whatever the rule
 * @param omitManagedFields whether request and response objects are recorded without
 *                          {@code metadata.managedFields}, unless a rule says otherwise
 */
public record Policy(List<Rule> rules, Set<Stage> omitStages, boolean omitManagedFields) {
    public Policy {
        rules = List.copyOf(rules);
        omitStages = Set.copyOf(omitStages);
    }

    /**
     * A PolicyRule. Each non-empty list must contain the request's value; empty lists match
     * everything. A rule with {@code resources} or {@code namespaces} matches resource requests
     * only, one with {@code nonResourceURLs} non-resource requests only.
     *
     * @param level             the level of the requests it matches
     * @param users             user names
     * @param userGroups        groups, any of the user's
     * @param verbs             request verbs ({@code get}, {@code list}, {@code watch}, {@code create}, ...)
     * @param resources         resources by group
     * @param namespaces        namespaces; {@code ""} for cluster-scoped resources
     * @param nonResourceURLs   paths; {@code *} matches all, and a trailing {@code *} any suffix
     * @param omitStages        stages no event is sent for, besides the policy's
     * @param omitManagedFields the rule's choice, or null for the policy's
     */
    public record Rule(Level level, List<String> users, List<String> userGroups, List<String> verbs,
                       List<GroupResources> resources, List<String> namespaces, List<String> nonResourceURLs,
                       Set<Stage> omitStages, Boolean omitManagedFields) {
        public Rule {
            users = List.copyOf(users);
            userGroups = List.copyOf(userGroups);
            verbs = List.copyOf(verbs);
            resources = List.copyOf(resources);
            namespaces = List.copyOf(namespaces);
            nonResourceURLs = List.copyOf(nonResourceURLs);
            omitStages = Set.copyOf(omitStages);
        }
    }

    /**
     * GroupResources: resources of one API group.
     *
     * @param group         the group, {@code ""} for the core group
     * @param resources     resources, such as {@code pods}, {@code pods/log}, {@code pods/*}, <code>*&#47;status</code>
     *                      or {@code *}; empty for every resource of the group
     * @param resourceNames object names; empty for any
     */
    public record GroupResources(String group, List<String> resources, List<String> resourceNames) {
        public GroupResources {
            resources = List.copyOf(resources);
            resourceNames = List.copyOf(resourceNames);
        }
    }
}
