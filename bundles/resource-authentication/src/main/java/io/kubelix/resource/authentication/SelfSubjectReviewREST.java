package io.kubelix.resource.authentication;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.UserInfo;


/**
 * kube's SelfSubjectReview storage ({@code kubectl auth whoami}): the review comes back with
 * {@code status.userInfo}, the requester as the server authenticated it (after impersonation):
 * name, uid, groups and extra. Nothing is stored.
 */
final class SelfSubjectReviewREST implements Creater {

    @Override
    public String kind() {
        return "SelfSubjectReview";
    }

    @Override
    public boolean namespaced() {
        return false;
    }

    @Override
    public String singularName() {
        return "selfsubjectreview";
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode review, CreateOptions options) {
        writeUser(review.putObject("status").putObject("userInfo"), ctx.user());
        return review;
    }

    /** authenticationv1.UserInfo: username, uid, groups and extra, the empty ones left out. */
    static void writeUser(ObjectNode info, UserInfo user) {
        info.put("username", user.name());
        if (!user.uid().isEmpty()) {
            info.put("uid", user.uid());
        }
        if (!user.groups().isEmpty()) {
            TokenReviewREST.strings(info, "groups", user.groups());
        }
        if (!user.extra().isEmpty()) {
            TokenReviewREST.extra(info, user.extra());
        }
    }
}
