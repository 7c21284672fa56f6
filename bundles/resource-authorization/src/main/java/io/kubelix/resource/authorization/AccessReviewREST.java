package io.kubelix.resource.authorization;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview storages: the
 * review's {@code spec} names a user (or, for the self review, the requester) and the attributes
 * of a resource or non-resource request; the answer is the review with {@code status.allowed},
 * {@code status.denied} and {@code status.reason} as the authorization chain decides. Nothing is
 * stored. Validation and messages are kube's.
 */
final class AccessReviewREST implements Creater {

    enum Kind {
        SELF("SelfSubjectAccessReview", "selfsubjectaccessreview", false),
        SUBJECT("SubjectAccessReview", "subjectaccessreview", false),
        LOCAL("LocalSubjectAccessReview", "localsubjectaccessreview", true);

        final String kind;
        final String singular;
        final boolean namespaced;

        Kind(String kind, String singular, boolean namespaced) {
            this.kind = kind;
            this.singular = singular;
            this.namespaced = namespaced;
        }
    }

    private final Kind kind;
    private final AuthorizationChain authorization;

    AccessReviewREST(Kind kind, AuthorizationChain authorization) {
        this.kind = kind;
        this.authorization = authorization;
    }

    @Override
    public String kind() {
        return kind.kind;
    }

    @Override
    public boolean namespaced() {
        return kind.namespaced;
    }

    @Override
    public String singularName() {
        return kind.singular;
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode review, CreateOptions options) {
        JsonNode spec = review.path("spec");
        List<FieldError> errors = validate(ctx, review, spec);
        if (!errors.isEmpty()) {
            throw StatusException.invalid(kind.kind, AuthorizationRESTStorageProvider.GROUP, "", errors);
        }
        UserInfo user = kind == Kind.SELF ? ctx.user() : subject(spec);
        RequestInfo attributes = spec.hasNonNull("resourceAttributes")
                ? resourceAttributes(spec.path("resourceAttributes"))
                : nonResourceAttributes(spec.path("nonResourceAttributes"));
        AuthorizationDecision d = authorization.authorize(user, attributes);
        ObjectNode status = review.putObject("status");
        status.put("allowed", d.decision() == AuthorizationDecision.Decision.ALLOW);
        if (d.decision() == AuthorizationDecision.Decision.DENY) {
            status.put("denied", true);
        }
        if (!d.reason().isEmpty()) {
            status.put("reason", d.reason());
        }
        return review;
    }

    private List<FieldError> validate(RequestContext ctx, ObjectNode review, JsonNode spec) {
        List<FieldError> errors = new ArrayList<>();
        boolean resource = spec.hasNonNull("resourceAttributes");
        boolean nonResource = spec.hasNonNull("nonResourceAttributes");
        if (resource && nonResource) {
            errors.add(FieldError.invalid("spec.nonResourceAttributes", spec.get("nonResourceAttributes"),
                    "cannot be specified in combination with resourceAttributes"));
        }
        if (!resource && !nonResource) {
            errors.add(FieldError.invalid("spec.resourceAttributes", "null",
                    "exactly one of nonResourceAttributes or resourceAttributes must be specified"));
        }
        if (kind != Kind.SELF && spec.path("user").asText("").isEmpty() && spec.path("groups").isEmpty()) {
            errors.add(FieldError.invalid("spec.user", spec.path("user").asText(""),
                    "at least one of user or group must be specified"));
        }
        if (kind == Kind.LOCAL) {
            if (resource && !spec.path("resourceAttributes").path("namespace").asText("").equals(ctx.namespace())) {
                errors.add(FieldError.invalid("spec.resourceAttributes.namespace",
                        spec.path("resourceAttributes").path("namespace").asText(""), "must match metadata.namespace"));
            }
            if (nonResource) {
                errors.add(FieldError.invalid("spec.nonResourceAttributes", spec.get("nonResourceAttributes"),
                        "disallowed on this kind of request"));
            }
        }
        return errors;
    }

    /** The user a SubjectAccessReview asks about. */
    private static UserInfo subject(JsonNode spec) {
        List<String> groups = new ArrayList<>();
        spec.path("groups").forEach(g -> groups.add(g.asText()));
        Map<String, List<String>> extra = new LinkedHashMap<>();
        spec.path("extra").fields().forEachRemaining(e -> {
            List<String> values = new ArrayList<>();
            e.getValue().forEach(v -> values.add(v.asText()));
            extra.put(e.getKey(), values);
        });
        return new UserInfo(spec.path("user").asText(""), spec.path("uid").asText(""), groups, extra);
    }

    /** authorizationutil.ResourceAttributesFrom. */
    static RequestInfo resourceAttributes(JsonNode a) {
        String group = a.path("group").asText("");
        return new RequestInfo(true, "", a.path("verb").asText(""), group.isEmpty() ? "api" : "apis", group,
                a.path("version").asText(""), a.path("namespace").asText(""), a.path("resource").asText(""),
                a.path("subresource").asText(""), a.path("name").asText(""), List.of());
    }

    /** authorizationutil.NonResourceAttributesFrom. */
    static RequestInfo nonResourceAttributes(JsonNode a) {
        return new RequestInfo(false, a.path("path").asText(""), a.path("verb").asText(""), "", "", "", "", "", "", "",
                List.of());
    }
}
