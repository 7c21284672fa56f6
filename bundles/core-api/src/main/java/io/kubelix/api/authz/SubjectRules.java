package io.kubelix.api.authz;

import java.util.ArrayList;
import java.util.List;

/**
 * What a user may do in a namespace, as {@code SelfSubjectRulesReview}'s status lists it.
 *
 * @param resourceRules    verbs on resources of API groups, optionally limited to names
 * @param nonResourceRules verbs on non-resource URLs
 * @param incomplete       true when an authorizer could not list everything it allows
 * @param evaluationError  why the list may be incomplete, or empty
 */
public record SubjectRules(List<ResourceRule> resourceRules, List<NonResourceRule> nonResourceRules,
                           boolean incomplete, String evaluationError) {

    public record ResourceRule(List<String> verbs, List<String> apiGroups, List<String> resources,
                               List<String> resourceNames) {
        public ResourceRule {
            verbs = List.copyOf(verbs);
            apiGroups = List.copyOf(apiGroups);
            resources = List.copyOf(resources);
            resourceNames = List.copyOf(resourceNames);
        }
    }

    public record NonResourceRule(List<String> verbs, List<String> nonResourceURLs) {
        public NonResourceRule {
            verbs = List.copyOf(verbs);
            nonResourceURLs = List.copyOf(nonResourceURLs);
        }
    }

    public SubjectRules {
        resourceRules = List.copyOf(resourceRules);
        nonResourceRules = List.copyOf(nonResourceRules);
        evaluationError = evaluationError == null ? "" : evaluationError;
    }

    /** Nothing allowed, nothing missing. */
    public static SubjectRules none() {
        return new SubjectRules(List.of(), List.of(), false, "");
    }

    /** Everything: what {@code AlwaysAllow} and {@code system:masters} hold. */
    public static SubjectRules all() {
        return new SubjectRules(List.of(new ResourceRule(List.of("*"), List.of("*"), List.of("*"), List.of())),
                List.of(new NonResourceRule(List.of("*"), List.of("*"))), false, "");
    }

    /** The union of both lists; incomplete when either is, with both errors. */
    public SubjectRules and(SubjectRules other) {
        List<ResourceRule> resources = new ArrayList<>(resourceRules);
        resources.addAll(other.resourceRules);
        List<NonResourceRule> nonResources = new ArrayList<>(nonResourceRules);
        nonResources.addAll(other.nonResourceRules);
        String error = evaluationError.isEmpty() ? other.evaluationError
                : other.evaluationError.isEmpty() ? evaluationError : evaluationError + ", " + other.evaluationError;
        return new SubjectRules(resources, nonResources, incomplete || other.incomplete, error);
    }
}
