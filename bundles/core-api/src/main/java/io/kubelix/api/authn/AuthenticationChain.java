package io.kubelix.api.authn;

import io.kubelix.api.request.UserInfo;
import org.osgi.annotation.versioning.ProviderType;

import java.util.List;
import java.util.Optional;

/**
 * The server's authenticators as a bearer token meets them, published by the runtime for the
 * {@code TokenReview} API: each {@link Authenticator} in {@code service.ranking} order is shown a
 * request carrying only {@code Authorization: Bearer <token>}.
 */
@ProviderType
public interface AuthenticationChain {

    /**
     * The user the token authenticates as, for the API server's audiences; empty when no
     * authenticator recognises it.
     *
     * @throws io.kubelix.api.errors.StatusException 401 when an authenticator finds the token wrong
     */
    default Optional<UserInfo> authenticateToken(String token) {
        return authenticateToken(token, List.of()).map(Authenticated::user);
    }

    /**
     * Who the token authenticates as when it must be meant for one of {@code audiences} (empty:
     * the API server's), as a TokenReview with {@code spec.audiences} asks: audience-aware
     * authenticators check the token's own audiences, the others' tokens count as meant for the
     * API server's audiences only. Empty when no authenticator recognises it for those audiences.
     *
     * @throws io.kubelix.api.errors.StatusException 401 when an authenticator finds the token wrong
     */
    Optional<Authenticated> authenticateToken(String token, List<String> audiences);

    /** The API server's audiences ({@code --api-audiences}, by default the service account issuer). */
    List<String> apiAudiences();
}
