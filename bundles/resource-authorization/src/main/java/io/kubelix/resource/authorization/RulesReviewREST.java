package io.kubelix.resource.authorization;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * kube's SelfSubjectRulesReview storage ({@code kubectl auth can-i --list}): the rules the
 * requester holds in {@code spec.namespace}, from every authorizer that can list them, and
 * {@code incomplete} when one cannot.
 */
final class RulesReviewREST implements Creater {
    private final AuthorizationChain authorization;

    RulesReviewREST(AuthorizationChain authorization) {
        this.authorization = authorization;
    }

    @Override
    public String kind() {
        return "SelfSubjectRulesReview";
    }

    @Override
    public boolean namespaced() {
        return false;
    }

    @Override
    public String singularName() {
        return "selfsubjectrulesreview";
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode review, CreateOptions options) {
        String namespace = review.path("spec").path("namespace").asText("");
        if (namespace.isEmpty()) {
            throw StatusException.badRequest("no namespace on request");
        }
        SubjectRules rules = authorization.rulesFor(ctx.user(), namespace);
        ObjectNode status = review.putObject("status");
        ArrayNode resourceRules = status.putArray("resourceRules");
        for (SubjectRules.ResourceRule r : rules.resourceRules()) {
            ObjectNode rule = resourceRules.addObject();
            strings(rule, "verbs", r.verbs());
            strings(rule, "apiGroups", r.apiGroups());
            strings(rule, "resources", r.resources());
            if (!r.resourceNames().isEmpty()) {
                strings(rule, "resourceNames", r.resourceNames());
            }
        }
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        for (SubjectRules.NonResourceRule r : rules.nonResourceRules()) {
            ObjectNode rule = nonResourceRules.addObject();
            strings(rule, "verbs", r.verbs());
            strings(rule, "nonResourceURLs", r.nonResourceURLs());
        }
        status.put("incomplete", rules.incomplete());
        if (!rules.evaluationError().isEmpty()) {
            status.put("evaluationError", rules.evaluationError());
        }
        return review;
    }

    private static void strings(ObjectNode node, String field, List<String> values) {
        ArrayNode array = node.putArray(field);
        values.forEach(array::add);
    }
}
