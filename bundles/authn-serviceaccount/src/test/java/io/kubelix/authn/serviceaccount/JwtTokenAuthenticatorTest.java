package io.kubelix.authn.serviceaccount;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kubelix.api.authn.Authenticated;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JwtTokenAuthenticatorTest {
    private static final TokenIssuer.ServiceAccount BOT = new TokenIssuer.ServiceAccount("team", "bot", "uid-bot");

    @TempDir
    Path dataDir;

    @Test
    void anIssuedTokenAuthenticatesAsItsServiceAccount() throws Exception {
        TokensFixture f = new TokensFixture(dataDir, null);
        String token = f.issuer().issue(BOT, List.of(), 3600, null).token();

        UserInfo user = f.authenticator().authenticate(TokensFixture.bearer(token)).orElseThrow();
        assertEquals("system:serviceaccount:team:bot", user.name());
        assertEquals("uid-bot", user.uid());
        assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"),
                user.groups());
        String jti = SignedJWT.parse(token).getJWTClaimsSet().getJWTID();
        assertEquals(Map.of("authentication.kubernetes.io/credential-id", List.of("JTI=" + jti)), user.extra());
        // the scheme is case-insensitive
        assertTrue(f.authenticator().authenticate(TokensFixture.request("bearer  " + token)).isPresent());
    }

    @Test
    void aPodBoundTokenCarriesThePodInExtra() {
        TokensFixture f = new TokensFixture(dataDir, null);
        String token = f.issuer().issue(BOT, List.of(), 3600, new TokenIssuer.BoundObject("Pod", "web-0", "uid-pod"))
                .token();
        Map<String, List<String>> extra = f.authenticator().authenticate(TokensFixture.bearer(token)).orElseThrow().extra();
        assertEquals(List.of("web-0"), extra.get("authentication.kubernetes.io/pod-name"));
        assertEquals(List.of("uid-pod"), extra.get("authentication.kubernetes.io/pod-uid"));
    }

    @Test
    void tokensThatAreNotJwtsOrNotOursFallThrough() throws Exception {
        TokensFixture f = new TokensFixture(dataDir, null);
        JwtTokenAuthenticator authn = f.authenticator();
        assertEquals(Optional.empty(), authn.authenticate(TokensFixture.request(null)));
        assertEquals(Optional.empty(), authn.authenticate(TokensFixture.bearer("0123456789abcdef")));
        assertEquals(Optional.empty(), authn.authenticate(TokensFixture.bearer("a.b.c")));
        assertEquals(Optional.empty(), authn.authenticate(TokensFixture.request("Basic YWRtaW46YWRtaW4=")));
        String issuedHere = f.issuer().issue(BOT, List.of(), 3600, null).token();
        assertEquals(Optional.empty(), authn.authenticate(TokensFixture.request("Basic " + issuedHere)));
        // another issuer's token, even one signed with our key
        assertEquals(Optional.empty(), authn.authenticate(TokensFixture.bearer(signed(f, claims("https://other.example")))));
    }

    @Test
    void aTamperedTokenIsRefused() {
        TokensFixture f = new TokensFixture(dataDir, null);
        String token = f.issuer().issue(BOT, List.of(), 3600, null).token();
        String[] parts = token.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1])).replace("\"bot\"", "\"admin\"");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes())
                + "." + parts[2];
        assertUnauthorized(f, forged);
    }

    @Test
    void aTokenOfAnotherKeyIsRefused(@TempDir Path otherDir) {
        TokensFixture f = new TokensFixture(dataDir, null);
        String foreign = new TokensFixture(otherDir, null).issuer().issue(BOT, List.of(), 3600, null).token();
        assertUnauthorized(f, foreign);
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() {
        TokensFixture f = new TokensFixture(dataDir, null);
        assertUnauthorized(f, f.issuer().issue(BOT, List.of("vault"), 3600, null).token());
        // one of several audiences is enough
        String both = f.issuer().issue(BOT, List.of("vault", TokensFixture.ISSUER), 3600, null).token();
        assertTrue(f.authenticator().authenticate(TokensFixture.bearer(both)).isPresent());
    }

    @Test
    void aReviewForOtherAudiencesAcceptsTheTokensMeantForThemAndSaysWhich() {
        TokensFixture f = new TokensFixture(dataDir, null);
        String forVault = f.issuer().issue(BOT, List.of("vault", "db"), 3600, null).token();

        Authenticated authenticated = f.authenticator().authenticate(TokensFixture.bearer(forVault),
                List.of("db", "other")).orElseThrow();
        assertEquals("system:serviceaccount:team:bot", authenticated.user().name());
        assertEquals(List.of("db"), authenticated.audiences());

        StatusException e = assertThrows(StatusException.class, () -> f.authenticator().authenticate(
                TokensFixture.bearer(forVault), List.of(TokensFixture.ISSUER)));
        assertEquals(401, e.code());
        String apiToken = f.issuer().issue(BOT, List.of(), 3600, null).token();
        assertThrows(StatusException.class, () -> f.authenticator().authenticate(TokensFixture.bearer(apiToken),
                List.of("vault")), "a token for the API server is not one for vault");
    }

    @Test
    void anExpiredOrNotYetValidTokenIsRefused() {
        TokensFixture f = new TokensFixture(dataDir, null);
        String token = f.issuer().issue(BOT, List.of(), 600, null).token();
        f.now = f.now.plusSeconds(599);
        assertTrue(f.authenticator().authenticate(TokensFixture.bearer(token)).isPresent());
        f.now = f.now.plusSeconds(1);
        assertUnauthorized(f, token);
        f.now = f.now.minusSeconds(601);
        assertUnauthorized(f, token);
    }

    @Test
    void aTokenWithoutItsServiceAccountIsRefused() throws Exception {
        TokensFixture f = new TokensFixture(dataDir, null);
        assertUnauthorized(f, signed(f, claims(TokensFixture.ISSUER)));
    }

    @Test
    void aTokenStopsAuthenticatingOnceItsServiceAccountIsDeletedOrRecreated() {
        TokensFixture f = new TokensFixture(dataDir, null);
        String token = f.issuer().issue(BOT, List.of(), 3600, null).token();
        assertTrue(f.authenticator().authenticate(TokensFixture.bearer(token)).isPresent());

        f.objects.remove("ServiceAccount", "team", "bot");
        assertUnauthorized(f, token);
        // The same name again is another account: the token named the old one's uid.
        f.objects.put("ServiceAccount", "team", "bot", "uid-bot-2");
        assertUnauthorized(f, token);
        f.objects.put("ServiceAccount", "team", "bot", "uid-bot");
        assertTrue(f.authenticator().authenticate(TokensFixture.bearer(token)).isPresent());
    }

    @Test
    void aServiceAccountBeingDeletedInvalidatesItsTokensAfterAMinute() {
        TokensFixture f = new TokensFixture(dataDir, null);
        String token = f.issuer().issue(BOT, List.of(), 3600, null).token();
        ObjectNode account = f.objects.put("ServiceAccount", "team", "bot", "uid-bot");
        ((ObjectNode) account.path("metadata")).put("deletionTimestamp", f.now.toString());
        f.now = f.now.plusSeconds(60);
        assertTrue(f.authenticator().authenticate(TokensFixture.bearer(token)).isPresent());
        f.now = f.now.plusSeconds(1);
        assertUnauthorized(f, token);
    }

    @Test
    void aBoundTokenStopsAuthenticatingOnceItsPodSecretOrNodeIsGoneOrAnother() {
        TokensFixture f = new TokensFixture(dataDir, null);
        f.objects.put("Secret", "team", "bot-token", "uid-secret");
        f.objects.put("Node", "", "worker", "uid-node");
        String podBound = f.issuer().issue(BOT, List.of(), 3600, new TokenIssuer.BoundObject("Pod", "web-0", "uid-pod"))
                .token();
        String secretBound = f.issuer().issue(BOT, List.of(), 3600,
                new TokenIssuer.BoundObject("Secret", "bot-token", "uid-secret")).token();
        String nodeBound = f.issuer().issue(BOT, List.of(), 3600,
                new TokenIssuer.BoundObject("Node", "worker", "uid-node")).token();
        for (String token : List.of(podBound, secretBound, nodeBound)) {
            assertTrue(f.authenticator().authenticate(TokensFixture.bearer(token)).isPresent());
        }

        f.objects.put("Pod", "team", "web-0", "uid-pod-2");
        f.objects.remove("Secret", "team", "bot-token");
        f.objects.put("Node", "", "worker", "uid-node-2");
        for (String token : List.of(podBound, secretBound, nodeBound)) {
            assertUnauthorized(f, token);
        }
        // An unbound token of the same account is unaffected.
        assertTrue(f.authenticator().authenticate(
                TokensFixture.bearer(f.issuer().issue(BOT, List.of(), 3600, null).token())).isPresent());
    }

    private static void assertUnauthorized(TokensFixture f, String token) {
        StatusException e = assertThrows(StatusException.class,
                () -> f.authenticator().authenticate(TokensFixture.bearer(token)));
        assertEquals(401, e.code());
    }

    private static JWTClaimsSet claims(String issuer) {
        return new JWTClaimsSet.Builder().issuer(issuer).subject("system:serviceaccount:team:bot")
                .audience(TokensFixture.ISSUER).expirationTime(new java.util.Date(Long.MAX_VALUE / 2)).build();
    }

    private static String signed(TokensFixture f, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims);
        jwt.sign(new RSASSASigner(f.keys.signing()));
        return jwt.serialize();
    }
}
