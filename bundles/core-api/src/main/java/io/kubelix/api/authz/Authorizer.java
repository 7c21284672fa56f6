package io.kubelix.api.authz;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

/**
 * authorizer.Authorizer: decides whether a user may do what a request asks. Authorizers are
 * whiteboard services asked in {@code service.ranking} order (a union, as kube-apiserver's
 * {@code --authorization-mode} list): the first ALLOW or DENY decides; when every authorizer
 * has no opinion, or none is installed, the request is forbidden.
 */
public interface Authorizer {
    AuthorizationDecision authorize(UserInfo user, RequestInfo request);
}
