package io.kubelix.api.authn;

import io.kubelix.api.request.UserInfo;
import org.osgi.annotation.versioning.ProviderType;

import java.util.Optional;

/**
 * The server's authenticators as a bearer token meets them, published by the runtime for the
 * {@code TokenReview} API: each {@link Authenticator} in {@code service.ranking} order is shown a
 * request carrying only {@code Authorization: Bearer <token>}.
 */
@ProviderType
public interface AuthenticationChain {

    /**
     * The user the token authenticates as, or empty when no authenticator recognises it.
     *
     * @throws io.kubelix.api.errors.StatusException 401 when an authenticator finds the token wrong
     */
    Optional<UserInfo> authenticateToken(String token);
}
