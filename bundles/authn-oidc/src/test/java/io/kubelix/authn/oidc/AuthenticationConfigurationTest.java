package io.kubelix.authn.oidc;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The jwt authenticators of kube's AuthenticationConfiguration, validated with kube's field paths and words. */
class AuthenticationConfigurationTest {
    private static final String HEAD = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n";

    @Test
    void aValidConfigurationGivesItsIssuers() {
        List<JwtIssuer> issuers = AuthenticationConfiguration.parse(HEAD + "jwt:\n- issuer:\n"
                + "    url: https://issuer.example\n    discoveryURL: https://internal.example/discovery\n"
                + "    audiences: [a, b]\n    audienceMatchPolicy: MatchAny\n"
                + "  claimMappings:\n    username: {claim: email, prefix: \"\"}\n");

        JwtIssuer issuer = issuers.get(0);
        assertEquals("https://issuer.example", issuer.url());
        assertEquals("https://internal.example/discovery", issuer.discoveryLocation());
        assertEquals(List.of("a", "b"), issuer.audiences());
        assertEquals("email", issuer.usernameClaim());
        assertEquals(Map.of(), issuer.requiredClaims());
    }

    @Test
    void mistakesAreReportedAsKubeReportsThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AuthenticationConfiguration
                .parse(HEAD + "jwt:\n- issuer:\n    url: http://issuer.example\n"
                        + "  claimMappings:\n    username: {claim: sub}\n"
                        + "- issuer:\n    url: https://b.example\n    audiences: [x, y]\n"
                        + "  claimMappings:\n    username: {expression: 'claims.sub +', prefix: x}\n"
                        + "- issuer:\n    url: https://c.example\n    audiences: [x]\n"
                        + "  claimMappings:\n    username: {expression: claims.email}\n"
                        + "    extra: [{key: Acme.io/Team, valueExpression: claims.team}]\n"));

        assertEquals("jwt[0].issuer.url: Invalid value: \"http://issuer.example\": URL scheme must be https, "
                + "jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required, "
                + "jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. "
                + "It can be set to an empty string to disable prefixing, "
                + "jwt[1].issuer.audienceMatchPolicy: Invalid value: \"\": audienceMatchPolicy must be MatchAny for "
                + "multiple audiences, "
                + "jwt[1].claimMappings.username.prefix: Invalid value: \"x\": prefix can't be set when expression is set, "
                + "jwt[1].claimMappings.username.expression: Invalid value: \"claims.sub +\": compilation failed: ",
                e.getMessage().substring(0, e.getMessage().indexOf("compilation failed: ") + 20));
        assertTrue(e.getMessage().contains("jwt[2].claimMappings.extra[0].key: Invalid value: \"Acme.io/Team\": key must "
                + "be lowercase"), e.getMessage());
        assertTrue(e.getMessage().contains("jwt[2].claimMappings.username.expression: Invalid value: \"claims.email\":"
                + " claims.email_verified must be used in"), e.getMessage());
    }

    @Test
    void theSameIssuerTwiceAndAnotherKindAreRefused() {
        String one = "- issuer: {url: https://a.example, audiences: [k]}\n  claimMappings: {username: {claim: sub, prefix: \"\"}}\n";
        assertEquals("jwt[1].issuer.url: Duplicate value: \"https://a.example\"", assertThrows(
                IllegalArgumentException.class, () -> AuthenticationConfiguration.parse(HEAD + "jwt:\n" + one + one))
                .getMessage());
        assertThrows(IllegalArgumentException.class, () -> AuthenticationConfiguration.parse(
                "apiVersion: v1\nkind: ConfigMap\n"));
    }

    @Test
    void legacyFlagsBecomeOneIssuerWithKubesDefaults() {
        JwtIssuer issuer = OidcFlags.issuer(Map.of("oidc-issuer-url", "https://i.example", "oidc-client-id", "k")::get,
                f -> "");
        assertEquals("sub", issuer.usernameClaim());
        assertEquals("https://i.example#", issuer.usernamePrefix());
        assertEquals(List.of("RS256"), issuer.signingAlgs());

        assertEquals("", OidcFlags.issuer(Map.of("oidc-issuer-url", "https://i.example", "oidc-client-id", "k",
                "oidc-username-claim", "email")::get, f -> "").usernamePrefix());
        assertEquals("", OidcFlags.issuer(Map.of("oidc-issuer-url", "https://i.example", "oidc-client-id", "k",
                "oidc-username-prefix", "-")::get, f -> "").usernamePrefix());
        assertEquals("oidc-issuer-url and oidc-client-id must be specified together", assertThrows(IllegalArgumentException.class, () -> OidcFlags.issuer(
                Map.of("oidc-issuer-url", "https://i.example")::get, f -> "")).getMessage());
        assertEquals("oidc: unsupported signing alg: \"HS256\"", assertThrows(IllegalArgumentException.class,
                () -> OidcFlags.issuer(Map.of("oidc-issuer-url", "https://i.example", "oidc-client-id", "k",
                        "oidc-signing-algs", "HS256")::get, f -> "")).getMessage());
    }
}
