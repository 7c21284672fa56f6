package io.kubelix.resource.authentication;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.Authenticated;
import io.kubelix.api.authn.AuthenticationChain;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's TokenReview storage: whether {@code spec.token} authenticates with this server's
 * authenticators, and as whom ({@code status.authenticated}, {@code status.user}); a token they
 * refuse answers {@code authenticated: false} with the reason in {@code status.error}. Nothing is
 * stored. A review with {@code spec.audiences} asks whether the token is meant for one of them
 * (service account tokens by their {@code aud}; other kinds count as meant for the API server's
 * audiences only); {@code status.audiences} says which of them it is for. Without, the API
 * server's audiences are asked for.
 */
final class TokenReviewREST implements Creater {
    private final AuthenticationChain authentication;

    TokenReviewREST(AuthenticationChain authentication) {
        this.authentication = authentication;
    }

    @Override
    public String kind() {
        return "TokenReview";
    }

    @Override
    public boolean namespaced() {
        return false;
    }

    @Override
    public String singularName() {
        return "tokenreview";
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode review, CreateOptions options) {
        String token = review.path("spec").path("token").asText("");
        if (token.isEmpty()) {
            throw StatusException.badRequest("token is required for TokenReview in authentication");
        }
        List<String> audiences = new ArrayList<>();
        review.path("spec").path("audiences").forEach(a -> audiences.add(a.asText()));
        ObjectNode status = review.putObject("status");
        Optional<Authenticated> authenticated;
        try {
            authenticated = authentication.authenticateToken(token, audiences);
        } catch (StatusException e) {
            status.put("authenticated", false);
            status.put("error", e.getMessage());
            return review;
        }
        status.put("authenticated", authenticated.isPresent());
        authenticated.ifPresent(a -> {
            SelfSubjectReviewREST.writeUser(status.putObject("user"), a.user());
            strings(status, "audiences", a.audiences());
        });
        return review;
    }

    static void strings(ObjectNode node, String field, List<String> values) {
        ArrayNode array = node.putArray(field);
        values.forEach(array::add);
    }

    static void extra(ObjectNode node, Map<String, List<String>> extra) {
        ObjectNode e = node.putObject("extra");
        extra.forEach((k, v) -> strings(e, k, v));
    }
}
