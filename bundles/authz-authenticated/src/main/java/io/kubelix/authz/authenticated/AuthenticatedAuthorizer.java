package io.kubelix.authz.authenticated;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Component;

/**
 * Allows every authenticated user everything: kube-apiserver's {@code AlwaysAllow} narrowed to
 * the group {@code system:authenticated}, the authorizer to run until RBAC is installed. It has
 * no opinion on anyone else (anonymous requests), so the chain forbids them. Its low ranking
 * lets any authorizer that can deny (Node, webhook) be asked first.
 */
@Component(service = Authorizer.class, property = Constants.SERVICE_RANKING + ":Integer=-100")
public final class AuthenticatedAuthorizer implements Authorizer {

    @Override
    public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
        if (user != null && user.groups().contains(UserInfo.ALL_AUTHENTICATED)) {
            return AuthorizationDecision.allow("user \"" + user.name() + "\" is in group \""
                    + UserInfo.ALL_AUTHENTICATED + "\", which authz-authenticated allows everything");
        }
        return AuthorizationDecision.noOpinion();
    }
}
