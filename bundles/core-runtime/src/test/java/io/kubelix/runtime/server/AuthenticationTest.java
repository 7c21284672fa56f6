package io.kubelix.runtime.server;

import io.kubelix.api.authn.AudienceAwareAuthenticator;
import io.kubelix.api.authn.Authenticated;
import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube's union authenticator with audiences: requests to the server are for the API audiences, a
 * TokenReview for its own; audience-agnostic authenticators count only for the API audiences.
 */
class AuthenticationTest {
    private static final List<String> API = List.of("https://kubernetes.default.svc.cluster.local", "api");

    /** Token "file:<user>" is a static token's; "jwt:<user>:<aud>,<aud>" names its audiences. */
    private final Authenticator tokenFile = request -> token(request).filter(t -> t.startsWith("file:"))
            .map(t -> user(t.substring(5)));
    private final AudienceAwareAuthenticator jwt = new AudienceAwareAuthenticator() {
        @Override
        public Optional<Authenticated> authenticate(AuthenticationRequest request, List<String> audiences) {
            return token(request).filter(t -> t.startsWith("jwt:")).flatMap(t -> {
                String[] parts = t.split(":", 3);
                List<String> shared = List.of(parts[2].split(",")).stream().filter(audiences::contains).toList();
                return shared.isEmpty() ? Optional.empty() : Optional.of(new Authenticated(user(parts[1]), shared));
            });
        }

        @Override
        public Optional<UserInfo> authenticate(AuthenticationRequest request) {
            throw new AssertionError("the server asks an audience-aware authenticator with audiences");
        }
    };
    private final Authentication authentication = new Authentication(() -> List.of(jwt, tokenFile), () -> API);

    @Test
    void requestsToTheServerAreForTheApiAudiences() {
        assertEquals("bot", authentication.authenticate(bearer("jwt:bot:api")).orElseThrow().name());
        assertTrue(authentication.authenticate(bearer("jwt:bot:vault")).isEmpty(), "a token for vault");
        assertEquals("alice", authentication.authenticate(bearer("file:alice")).orElseThrow().name());
    }

    @Test
    void aReviewWithoutAudiencesIsForTheApiAudiences() {
        assertEquals(new Authenticated(user("alice"), API), authentication.authenticateToken("file:alice", List.of())
                .orElseThrow());
        assertEquals(List.of("api"), authentication.authenticateToken("jwt:bot:api,vault", List.of()).orElseThrow()
                .audiences());
    }

    @Test
    void aReviewForOtherAudiencesAcceptsOnlyTokensMeantForThem() {
        assertEquals(List.of("vault"), authentication.authenticateToken("jwt:bot:api,vault", List.of("vault", "db"))
                .orElseThrow().audiences());
        assertTrue(authentication.authenticateToken("file:alice", List.of("vault")).isEmpty(),
                "a static token is the API server's only");
        assertEquals(List.of("api"), authentication.authenticateToken("file:alice", List.of("vault", "api"))
                .orElseThrow().audiences(), "one API audience among those asked is enough");
    }

    @Test
    void apiAudiencesAreTheFlagsElseTheTokenIssuersDefaultsElseKubesIssuer() {
        TokenIssuer issuer = new TokenIssuer() {
            @Override
            public List<String> defaultAudiences() {
                return List.of("https://issuer.example");
            }

            @Override
            public IssuedToken issue(ServiceAccount account, List<String> audiences, long expirationSeconds,
                                     BoundObject boundObject) {
                throw new UnsupportedOperationException();
            }
        };
        assertEquals(List.of("a", "b"), Authentication.apiAudiences(" a, b,,a ", () -> issuer).get());
        // The issuer configured for the service account plugin, however it was configured.
        assertEquals(List.of("https://issuer.example"), Authentication.apiAudiences("", () -> issuer).get());
        assertEquals(List.of(TokenIssuer.DEFAULT_ISSUER), Authentication.apiAudiences(null, () -> null).get());
    }

    private static Optional<String> token(AuthenticationRequest request) {
        String header = request.header("Authorization");
        return header != null && header.startsWith("Bearer ") ? Optional.of(header.substring(7)) : Optional.empty();
    }

    private static UserInfo user(String name) {
        return new UserInfo(name, "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of());
    }

    private static AuthenticationRequest bearer(String token) {
        return new AuthenticationRequest() {
            @Override
            public String header(String name) {
                return name.equals("Authorization") ? "Bearer " + token : null;
            }

            @Override
            public List<java.security.cert.X509Certificate> peerCertificates() {
                return List.of();
            }

            @Override
            public String remoteAddress() {
                return "127.0.0.1";
            }
        };
    }
}
