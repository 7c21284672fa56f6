package io.kubelix.authz.authenticated;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.authz.RuleResolver;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Component;

/**
 * kube-apiserver's {@code AlwaysAllow} ({@code --authorization-mode=AlwaysAllow}): every
 * authenticated user may do everything. As in kube-apiserver, anonymous requests are refused in
 * this mode, so it never allows them; it has no opinion on them.
 */
@Component(service = Authorizer.class, property = {Authorizer.MODE + "=AlwaysAllow",
        Constants.SERVICE_RANKING + ":Integer=-100"})
public final class AuthenticatedAuthorizer implements Authorizer, RuleResolver {

    @Override
    public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
        if (user != null && user.groups().contains(UserInfo.ALL_AUTHENTICATED)) {
            return AuthorizationDecision.allow("user \"" + user.name() + "\" is in group \""
                    + UserInfo.ALL_AUTHENTICATED + "\", which AlwaysAllow allows everything");
        }
        return AuthorizationDecision.noOpinion();
    }

    @Override
    public SubjectRules rulesFor(UserInfo user, String namespace) {
        return user != null && user.groups().contains(UserInfo.ALL_AUTHENTICATED) ? SubjectRules.all() : SubjectRules.none();
    }
}
