package io.kubelix.api.authn;

import org.osgi.annotation.versioning.ConsumerType;

import java.time.Instant;
import java.util.List;

/**
 * serviceaccount.TokenGenerator as the TokenRequest API uses it: issues signed tokens for service
 * accounts, which the same plugin's {@link Authenticator} then accepts. The
 * {@code serviceaccounts/token} subresource is served only while an issuer is registered.
 */
@ConsumerType
public interface TokenIssuer {

    /**
     * kube-apiserver's default {@code --service-account-issuer}, which is also the default of
     * {@code --api-audiences}, the audiences the API server accepts tokens for.
     */
    String DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";

    /** The audiences a token is issued for when its request names none (kube's API audiences). */
    List<String> defaultAudiences();

    /**
     * Issues a token for {@code account}.
     *
     * @param audiences         the token's audiences; empty for {@link #defaultAudiences()}
     * @param expirationSeconds the requested lifetime, at least 600; the issuer may shorten it to
     *                          its maximum (kube's {@code --service-account-max-token-expiration})
     * @param boundObject       the object the token is bound to, or null
     * @return the token and the lifetime it was given
     * @throws IllegalArgumentException when {@code expirationSeconds} is below 600 or the bound
     *         object's kind is not one the issuer can bind to
     */
    IssuedToken issue(ServiceAccount account, List<String> audiences, long expirationSeconds, BoundObject boundObject);

    /** The service account a token is for; {@code uid} is its {@code metadata.uid}. */
    record ServiceAccount(String namespace, String name, String uid) {
    }

    /** The object a token is bound to: {@code kind} is {@code Pod}, {@code Secret} or {@code Node}. */
    record BoundObject(String kind, String name, String uid) {
    }

    /**
     * @param token             the signed token (a JWT)
     * @param expirationSeconds its lifetime, the one requested unless the issuer shortened it
     * @param expiration        when it expires
     */
    record IssuedToken(String token, long expirationSeconds, Instant expiration) {
    }
}
