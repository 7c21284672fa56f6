package io.kubelix.api.authz;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The server's authorization as a request meets it, published by the runtime for the access
 * review APIs ({@code SubjectAccessReview}, {@code kubectl auth can-i}): {@code system:masters}
 * first, then the authorizers of the configured {@code --authorization-mode}s in order, as
 * {@link Authorizer} describes.
 */
@ProviderType
public interface AuthorizationChain {

    /**
     * What the server would decide for this user and request: ALLOW, DENY when an authorizer
     * denied it, NO_OPINION when none decided (the server forbids such a request too).
     */
    AuthorizationDecision authorize(UserInfo user, RequestInfo request);

    /**
     * The rules the user holds in the namespace (empty: cluster-wide only), from every configured
     * authorizer that can list them ({@link RuleResolver}); incomplete when one cannot.
     */
    SubjectRules rulesFor(UserInfo user, String namespace);
}
