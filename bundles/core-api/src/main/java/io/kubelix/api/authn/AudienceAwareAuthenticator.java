package io.kubelix.api.authn;

import org.osgi.annotation.versioning.ConsumerType;

import java.util.List;
import java.util.Optional;

/**
 * An authenticator of credentials that say which audiences they are meant for (a service account
 * JWT's {@code aud}), as kube's audience-aware token authenticators. The server asks it with the
 * audiences a request targets: the API server's own ({@code --api-audiences}) for a request to it,
 * those of a TokenReview's {@code spec.audiences} for a review. Every other authenticator is
 * audience-agnostic: its credentials count as meant for the API server's audiences only, so a
 * review for other audiences gets no user from it.
 */
@ConsumerType
public interface AudienceAwareAuthenticator extends Authenticator {

    /**
     * @param audiences the audiences the credentials must be meant for, at least one of them; never empty
     * @return the user and the audiences, among {@code audiences}, the credentials are for; empty when
     *         this authenticator does not recognise them
     * @throws io.kubelix.api.errors.StatusException 401 when they are this authenticator's kind but
     *         wrong, or meant for none of the audiences
     */
    Optional<Authenticated> authenticate(AuthenticationRequest request, List<String> audiences);
}
