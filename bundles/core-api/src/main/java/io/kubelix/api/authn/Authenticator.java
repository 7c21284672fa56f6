package io.kubelix.api.authn;

import io.kubelix.api.request.UserInfo;
import org.osgi.annotation.versioning.ConsumerType;

import java.util.Optional;

/**
 * authenticator.Request: turns a request's credentials into a user. Authenticators are
 * whiteboard services tried in {@code service.ranking} order; the first that recognises the
 * request wins. A request no authenticator recognises is answered 401.
 */
@ConsumerType
public interface Authenticator {

    /**
     * @return the user, or empty when this authenticator does not recognise the credentials
     *         (another one may)
     * @throws io.kubelix.api.errors.StatusException 401 when the credentials are this
     *         authenticator's kind but are wrong, ending authentication
     */
    Optional<UserInfo> authenticate(AuthenticationRequest request);
}
