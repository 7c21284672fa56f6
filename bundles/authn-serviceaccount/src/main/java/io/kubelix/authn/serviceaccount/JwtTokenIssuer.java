package io.kubelix.authn.serviceaccount;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kubelix.api.authn.TokenIssuer;

import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Signs service account tokens as kube's JWT token generator does (RS256, {@code kid} of the
 * signing key), with kube's claims: {@code iss}, {@code sub} {@code system:serviceaccount:<ns>:<name>},
 * {@code aud}, {@code exp}, {@code iat}, {@code nbf}, {@code jti}, and the private
 * {@code kubernetes.io} claim naming the namespace, the service account and the bound object.
 */
final class JwtTokenIssuer implements TokenIssuer {
    static final long MIN_EXPIRATION_SECONDS = 600;
    static final String KUBERNETES_CLAIM = "kubernetes.io";
    private static final List<String> BINDABLE_KINDS = List.of("Pod", "Secret", "Node");

    private final ServiceAccountSettings settings;
    private final SigningKeys keys;
    private final Clock clock;
    private final RSASSASigner signer;

    JwtTokenIssuer(ServiceAccountSettings settings, SigningKeys keys, Clock clock) {
        this.settings = settings;
        this.keys = keys;
        this.clock = clock;
        this.signer = new RSASSASigner(keys.signing());
    }

    @Override
    public List<String> defaultAudiences() {
        return settings.apiAudiences();
    }

    @Override
    public IssuedToken issue(ServiceAccount account, List<String> audiences, long expirationSeconds,
                             BoundObject boundObject) {
        if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
            throw new IllegalArgumentException("expirationSeconds " + expirationSeconds + " is below "
                    + MIN_EXPIRATION_SECONDS);
        }
        if (boundObject != null && !BINDABLE_KINDS.contains(boundObject.kind())) {
            throw new IllegalArgumentException("cannot bind a token to a " + boundObject.kind());
        }
        long lifetime = settings.maxTokenExpiration() == null ? expirationSeconds
                : Math.min(expirationSeconds, settings.maxTokenExpiration().toSeconds());
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Instant expiration = now.plusSeconds(lifetime);

        Map<String, Object> kubernetes = new LinkedHashMap<>();
        kubernetes.put("namespace", account.namespace());
        if (boundObject != null) {
            kubernetes.put(boundObject.kind().toLowerCase(java.util.Locale.ROOT),
                    Map.of("name", boundObject.name(), "uid", boundObject.uid()));
        }
        kubernetes.put("serviceaccount", Map.of("name", account.name(), "uid", account.uid()));

        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(settings.issuer())
                .subject(ServiceAccountUser.userName(account.namespace(), account.name()))
                .audience(audiences.isEmpty() ? defaultAudiences() : audiences)
                .expirationTime(Date.from(expiration))
                .issueTime(Date.from(now))
                .notBeforeTime(Date.from(now))
                .jwtID(UUID.randomUUID().toString())
                .claim(KUBERNETES_CLAIM, kubernetes)
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(keys.keyId()).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a service account token: " + e.getMessage(), e);
        }
        return new IssuedToken(jwt.serialize(), lifetime, expiration);
    }
}
