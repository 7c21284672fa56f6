package io.kubelix.authn.serviceaccount;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kubelix.api.authn.Authenticated;
import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.UserInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * kube's service account JWT authenticator: a bearer token that is a JWT whose {@code iss} is this
 * server's issuer must carry a valid RS256 signature of one of the verification keys, an audience
 * the request targets (for a request to the server, one of the API audiences), and be within
 * {@code nbf} and {@code exp}, and name a service account (and bound object) that still exists
 * with the uid it names ({@link TokenValidator}); it then authenticates as the service account. A
 * token that is not a JWT, or is another issuer's, is not recognised, so other authenticators (the
 * token file) still get it; one of ours that fails a check ends authentication with 401.
 */
final class JwtTokenAuthenticator implements Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(JwtTokenAuthenticator.class);

    private final ServiceAccountSettings settings;
    private final List<RSASSAVerifier> verifiers;
    private final Clock clock;
    private final TokenValidator validator;

    JwtTokenAuthenticator(ServiceAccountSettings settings, SigningKeys keys, Clock clock,
                          ServiceAccountTokenGetter getter) {
        this.settings = settings;
        this.verifiers = keys.verification().stream().map(RSASSAVerifier::new).toList();
        this.clock = clock;
        this.validator = new TokenValidator(getter, clock);
    }

    @Override
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        return authenticate(request, settings.apiAudiences()).map(Authenticated::user);
    }

    /**
     * As kube's JWT authenticator with the audiences a request targets: the token's audiences
     * must share one with them, and those it shares are the answer's.
     */
    Optional<Authenticated> authenticate(AuthenticationRequest request, List<String> audiences) {
        String token = request.bearerToken().orElse(null);
        if (token == null || token.chars().filter(c -> c == '.').count() != 2) {
            return Optional.empty();
        }
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            return Optional.empty();
        }
        if (!settings.issuer().equals(claims.getIssuer())) {
            return Optional.empty();
        }
        if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm()) || !verified(jwt)) {
            throw refused("invalid signature", request.remoteAddress());
        }
        List<String> shared = claims.getAudience().stream().filter(audiences::contains).distinct().toList();
        if (shared.isEmpty()) {
            throw refused("token audiences " + quoted(claims.getAudience()) + " is invalid for the target audiences "
                    + quoted(audiences), request.remoteAddress());
        }
        return Optional.of(new Authenticated(validate(claims, request.remoteAddress()), shared));
    }

    private UserInfo validate(JWTClaimsSet claims, String remote) {
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null || !now.isBefore(exp.toInstant())) {
            throw refused("token has expired", remote);
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.isBefore(nbf.toInstant())) {
            throw refused("token is not valid yet", remote);
        }
        Map<String, Object> kubernetes;
        try {
            kubernetes = claims.getJSONObjectClaim(JwtTokenIssuer.KUBERNETES_CLAIM);
        } catch (ParseException e) {
            kubernetes = null;
        }
        String namespace = kubernetes == null ? "" : text(kubernetes.get("namespace"));
        Map<?, ?> account = kubernetes != null && kubernetes.get("serviceaccount") instanceof Map<?, ?> m ? m : Map.of();
        String name = text(account.get("name"));
        String uid = text(account.get("uid"));
        if (namespace.isEmpty() || name.isEmpty() || uid.isEmpty()
                || !ServiceAccountUser.userName(namespace, name).equals(claims.getSubject())) {
            throw refused("token does not name its service account", remote);
        }
        String[] pod = kubernetes.get("pod") instanceof Map<?, ?> p
                ? new String[] {text(p.get("name")), text(p.get("uid"))} : null;
        String invalidated = validator.invalidated(namespace, name, uid, kubernetes);
        if (invalidated != null) {
            throw refused(invalidated, remote);
        }
        String jti = claims.getJWTID() == null ? "" : claims.getJWTID();
        return ServiceAccountUser.of(namespace, name, uid, pod, jti);
    }

    private boolean verified(SignedJWT jwt) {
        for (RSASSAVerifier v : verifiers) {
            try {
                if (jwt.verify(v)) {
                    return true;
                }
            } catch (JOSEException e) {
                // try the next key
            }
        }
        return false;
    }

    private static StatusException refused(String why, String remote) {
        LOG.info("service account token from {} refused: {}", remote, why);
        return StatusException.unauthorized("Unauthorized");
    }

    /** A list as Go's %q prints a []string: {@code ["a" "b"]}. */
    private static String quoted(List<String> values) {
        return values.stream().map(v -> "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(" ", "[", "]"));
    }

    private static String text(Object value) {
        return value instanceof String s ? s : "";
    }
}
