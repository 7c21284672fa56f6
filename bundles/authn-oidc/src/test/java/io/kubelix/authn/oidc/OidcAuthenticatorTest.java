package io.kubelix.authn.oidc;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ID tokens of a real (loopback HTTPS) provider, verified and mapped as kube's OIDC authenticator does. */
class OidcAuthenticatorTest {
    @TempDir
    Path dir;

    private TestIssuer issuer;
    private final Map<String, String> flags = new HashMap<>();

    @BeforeEach
    void start() throws Exception {
        issuer = new TestIssuer();
        Path ca = dir.resolve("oidc-ca.crt");
        Files.writeString(ca, issuer.ca.pem());
        flags.put("oidc-issuer-url", issuer.url);
        flags.put("oidc-client-id", "kubelix");
        flags.put("oidc-ca-file", ca.toString());
    }

    @AfterEach
    void stop() {
        issuer.close();
    }

    @Test
    void aTokenOfTheIssuerAuthenticatesAsItsPrefixedSubject() throws Exception {
        OidcAuthenticator oidc = authenticator();

        UserInfo user = oidc.authenticate(bearer(issuer.token(Map.of("sub", "1234")))).orElseThrow();

        assertEquals(issuer.url + "#1234", user.name(), "a claim other than email gets the issuer as prefix");
        assertEquals(List.of(UserInfo.ALL_AUTHENTICATED), user.groups());
    }

    @Test
    void emailAndGroupsClaimsAsKubeMapsThem() throws Exception {
        flags.put("oidc-username-claim", "email");
        flags.put("oidc-groups-claim", "groups");
        flags.put("oidc-groups-prefix", "oidc:");
        OidcAuthenticator oidc = authenticator();

        UserInfo alice = oidc.authenticate(bearer(issuer.token(Map.of("email", "alice@example.com",
                "email_verified", true, "groups", List.of("devs", "ops"))))).orElseThrow();
        assertEquals("alice@example.com", alice.name(), "email is not prefixed");
        assertEquals(List.of("oidc:devs", "oidc:ops", UserInfo.ALL_AUTHENTICATED), alice.groups());

        UserInfo bob = oidc.authenticate(bearer(issuer.token(Map.of("email", "bob@example.com", "groups", "admins"))))
                .orElseThrow();
        assertEquals(List.of("oidc:admins", UserInfo.ALL_AUTHENTICATED), bob.groups(), "one group as a string");

        assertUnauthorized(oidc, issuer.token(Map.of("email", "eve@example.com", "email_verified", false)));
        assertUnauthorized(oidc, issuer.token(Map.of("sub", "no-email")));
    }

    @Test
    void tokensThatDoNotVerifyAreUnauthorized() throws Exception {
        flags.put("oidc-required-claim", "hd=example.com");
        OidcAuthenticator oidc = authenticator();
        assertTrue(oidc.authenticate(bearer(issuer.token(Map.of("sub", "a", "hd", "example.com")))).isPresent());

        assertUnauthorized(oidc, issuer.token(Map.of("sub", "a", "hd", "example.com", "aud", "another-client")));
        assertUnauthorized(oidc, issuer.token(Map.of("sub", "a", "hd", "example.com",
                "exp", Date.from(Instant.now().minusSeconds(5)))));
        assertUnauthorized(oidc, issuer.token(Map.of("sub", "a", "hd", "other.com")));
        assertUnauthorized(oidc, issuer.token(Map.of("sub", "a")));
        String token = issuer.token(Map.of("sub", "a", "hd", "example.com"));
        String[] parts = token.split("\\.");
        assertUnauthorized(oidc, parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse());
        TestIssuer other = new TestIssuer();
        try {
            // Signed by another provider's key but naming this issuer.
            String forged = other.token(Map.of("sub", "a", "hd", "example.com", "iss", issuer.url));
            assertUnauthorized(oidc, forged);
        } finally {
            other.close();
        }
    }

    @Test
    void tokensOfOtherIssuersAndOtherKindsAreLeftToOtherAuthenticators() throws Exception {
        OidcAuthenticator oidc = authenticator();

        assertEquals(Optional.empty(), oidc.authenticate(bearer(issuer.token(Map.of("sub", "a",
                "iss", "https://elsewhere.example")))));
        assertEquals(Optional.empty(), oidc.authenticate(bearer("0123456789abcdef")));
        assertEquals(Optional.empty(), oidc.authenticate(bearer("a.b.c")));
    }

    @Test
    void aRotatedKeyIsFetchedWhenATokenNamesIt() throws Exception {
        OidcAuthenticator oidc = authenticator();
        assertTrue(oidc.authenticate(bearer(issuer.token(Map.of("sub", "a")))).isPresent());

        issuer.rotate();

        assertEquals(issuer.url + "#b", oidc.authenticate(bearer(issuer.token(Map.of("sub", "b")))).orElseThrow()
                .name());
    }

    @Test
    void anAuthenticationConfigurationFileConfiguresIssuersAndIsReloaded() throws Exception {
        Path config = dir.resolve("authn.yaml");
        Files.writeString(config, configuration("oidc:"));
        OidcAuthenticator oidc = new OidcAuthenticator(Map.of("authentication-config", config.toString())::get,
                Clock.systemUTC());

        UserInfo user = oidc.authenticate(bearer(issuer.token(Map.of("sub", "a", "preferred_username", "alice",
                "roles", List.of("x"), "tenant", "t1")))).orElseThrow();
        assertEquals("oidc:alice", user.name());
        assertEquals(List.of("role:x", UserInfo.ALL_AUTHENTICATED), user.groups());
        assertEquals("a", user.uid());
        assertUnauthorized(oidc, issuer.token(Map.of("sub", "a", "preferred_username", "alice", "tenant", "t2")));

        Files.writeString(config, configuration("sso:"));
        Files.setLastModifiedTime(config, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(10)));
        Thread.sleep(1100);
        assertEquals("sso:alice", oidc.authenticate(bearer(issuer.token(Map.of("sub", "a", "preferred_username",
                "alice", "tenant", "t1")))).orElseThrow().name());
    }

    @Test
    void celExpressionsMapClaimsAndValidateTokensAndUsers() throws Exception {
        Path config = dir.resolve("authn-cel.yaml");
        Files.writeString(config, "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n"
                + "- issuer:\n    url: " + issuer.url + "\n    audiences: [kubelix]\n"
                + "    certificateAuthority: |\n" + issuer.ca.pem().indent(6)
                + "  claimMappings:\n"
                + "    username:\n      expression: \"claims.email_verified ? 'sso:' + claims.email : ''\"\n"
                + "    groups:\n      expression: \"claims.roles.map(r, 'role:' + r)\"\n"
                + "    uid:\n      expression: claims.sub\n"
                + "    extra:\n    - key: acme.io/tenant\n      valueExpression: claims.tenant\n"
                + "  claimValidationRules:\n  - expression: \"claims.tenant != 'blocked'\"\n    message: tenant is blocked\n"
                + "  userValidationRules:\n  - expression: \"!user.username.startsWith('sso:system:')\"\n"
                + "    message: no system names\n");
        OidcAuthenticator oidc = new OidcAuthenticator(Map.of("authentication-config", config.toString())::get,
                Clock.systemUTC());

        UserInfo user = oidc.authenticate(bearer(issuer.token(Map.of("sub", "u1", "email", "alice@example.com",
                "email_verified", true, "roles", List.of("dev", "ops"), "tenant", "t1")))).orElseThrow();
        assertEquals("sso:alice@example.com", user.name());
        assertEquals(List.of("role:dev", "role:ops", UserInfo.ALL_AUTHENTICATED), user.groups());
        assertEquals("u1", user.uid());
        assertEquals(Map.of("acme.io/tenant", List.of("t1")), user.extra());

        assertUnauthorized(oidc, issuer.token(Map.of("sub", "u1", "email", "a@example.com", "email_verified", true,
                "roles", List.of(), "tenant", "blocked")));
        assertUnauthorized(oidc, issuer.token(Map.of("sub", "u1", "email", "system:x", "email_verified", true,
                "roles", List.of(), "tenant", "t1")));
        assertUnauthorized(oidc, issuer.token(Map.of("sub", "u1", "email", "a@example.com", "email_verified", true,
                "tenant", "t1")), "no roles claim: the groups expression fails");
    }

    @Test
    void bothTheFlagsAndAFileAreRefused() {
        flags.put("authentication-config", dir.resolve("authn.yaml").toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, this::authenticator);
        assertEquals("authentication-config file and oidc-* flags are mutually exclusive", e.getMessage());
    }

    private String configuration(String prefix) throws Exception {
        return "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n"
                + "- issuer:\n    url: " + issuer.url + "\n    audiences: [kubelix]\n"
                + "    certificateAuthority: |\n" + issuer.ca.pem().indent(6)
                + "  claimMappings:\n    username:\n      claim: preferred_username\n      prefix: \"" + prefix + "\"\n"
                + "    groups:\n      claim: roles\n      prefix: \"role:\"\n    uid:\n      claim: sub\n"
                + "  claimValidationRules:\n  - claim: tenant\n    requiredValue: t1\n";
    }

    private OidcAuthenticator authenticator() {
        return new OidcAuthenticator(flags::get, Clock.systemUTC());
    }

    private static void assertUnauthorized(OidcAuthenticator oidc, String token) {
        assertUnauthorized(oidc, token, "");
    }

    private static void assertUnauthorized(OidcAuthenticator oidc, String token, String why) {
        StatusException e = assertThrows(StatusException.class, () -> oidc.authenticate(bearer(token)), why);
        assertEquals(401, e.code());
    }

    private static AuthenticationRequest bearer(String token) {
        return new AuthenticationRequest() {
            @Override
            public String header(String name) {
                return name.equalsIgnoreCase("Authorization") ? "Bearer " + token : null;
            }

            @Override
            public List<X509Certificate> peerCertificates() {
                return List.of();
            }

            @Override
            public String remoteAddress() {
                return "127.0.0.1";
            }
        };
    }
}
