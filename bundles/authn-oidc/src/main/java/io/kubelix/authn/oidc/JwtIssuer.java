package io.kubelix.authn.oidc;

import java.util.List;
import java.util.Map;

/**
 * One JWT authenticator of kube's {@code AuthenticationConfiguration} ({@code jwt[i]}), the form
 * the {@code --oidc-*} flags are turned into too.
 *
 * @param url            {@code issuer.url}: the tokens' {@code iss}, and where discovery is read
 * @param discoveryUrl   {@code issuer.discoveryURL}, or empty for {@code <url>/.well-known/openid-configuration}
 * @param caPem          {@code issuer.certificateAuthority}: PEM CAs the issuer's HTTPS is verified
 *                       with, or empty for the JDK's
 * @param audiences      {@code issuer.audiences}: a token's {@code aud} must hold one of them
 * @param usernameClaim  {@code claimMappings.username.claim}
 * @param usernamePrefix {@code claimMappings.username.prefix}, prepended to the name
 * @param groupsClaim    {@code claimMappings.groups.claim}, or empty for no groups
 * @param groupsPrefix   {@code claimMappings.groups.prefix}
 * @param uidClaim       {@code claimMappings.uid.claim}, or empty
 * @param requiredClaims {@code claimValidationRules} of the claim form: each claim must be the value
 * @param signingAlgs    the JWS algorithms accepted ({@code --oidc-signing-algs}; RS256 by default)
 * @param expressions    the CEL expressions of the mappings and validation rules ({@link ClaimExpressions#NONE})
 */
record JwtIssuer(String url, String discoveryUrl, String caPem, List<String> audiences, String usernameClaim,
                 String usernamePrefix, String groupsClaim, String groupsPrefix, String uidClaim,
                 Map<String, String> requiredClaims, List<String> signingAlgs, ClaimExpressions expressions) {

    /** kube's allow-list of signing algorithms. */
    static final List<String> ALLOWED_ALGS = List.of("RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256",
            "PS384", "PS512");

    JwtIssuer {
        audiences = List.copyOf(audiences);
        requiredClaims = Map.copyOf(requiredClaims);
        signingAlgs = List.copyOf(signingAlgs);
    }

    /** Where the discovery document is read. */
    String discoveryLocation() {
        return discoveryUrl.isEmpty() ? trimSlash(url) + "/.well-known/openid-configuration" : discoveryUrl;
    }

    private static String trimSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
