package io.kubelix.resource.authentication;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.UserInfo;

import java.util.List;
import java.util.Map;

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
        UserInfo user = ctx.user();
        ObjectNode info = review.putObject("status").putObject("userInfo");
        info.put("username", user.name());
        if (!user.uid().isEmpty()) {
            info.put("uid", user.uid());
        }
        if (!user.groups().isEmpty()) {
            ArrayNode groups = info.putArray("groups");
            user.groups().forEach(groups::add);
        }
        if (!user.extra().isEmpty()) {
            ObjectNode extra = info.putObject("extra");
            for (Map.Entry<String, List<String>> e : user.extra().entrySet()) {
                ArrayNode values = extra.putArray(e.getKey());
                e.getValue().forEach(values::add);
            }
        }
        return review;
    }
}
