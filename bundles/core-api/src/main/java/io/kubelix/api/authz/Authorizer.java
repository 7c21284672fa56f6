package io.kubelix.api.authz;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * authorizer.Authorizer: decides whether a user may do what a request asks. Authorizers are
 * whiteboard services asked as a union, as kube-apiserver's {@code --authorization-mode} list:
 * members of {@code system:masters} are always allowed; then the authorizers of each configured
 * mode, in the order of the list, each mode's by {@code service.ranking}; then the authorizers
 * that name no mode, by ranking. With {@code --authorization-config} the order is that of the
 * file's {@code authorizers}, each entry served by the authorizers of its type and {@link #NAME}. The first ALLOW or DENY decides; when every authorizer has no
 * opinion the request is forbidden.
 */
@ConsumerType
public interface Authorizer {
    /**
     * The service property naming the {@code --authorization-mode} an authorizer implements
     * ({@code RBAC}, {@code Webhook}, {@code AlwaysAllow}, ...). An authorizer of a mode that is
     * not configured is never asked.
     */
    String MODE = "kubelix.authorization.mode";

    /**
     * The service property naming the entry of kube's {@code AuthorizationConfiguration}
     * ({@code --authorization-config}) an authorizer serves, such as a webhook's {@code name}.
     * Without it an authorizer serves its mode's default entry: the lower-cased mode
     * ({@code rbac}), or {@code default} for {@code Webhook}, as kube names the entries it makes of
     * {@code --authorization-mode}.
     */
    String NAME = "kubelix.authorization.name";

    AuthorizationDecision authorize(UserInfo user, RequestInfo request);
}
