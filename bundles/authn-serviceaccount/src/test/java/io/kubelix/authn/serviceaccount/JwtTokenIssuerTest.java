package io.kubelix.authn.serviceaccount;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kubelix.api.authn.TokenIssuer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JwtTokenIssuerTest {
    private static final TokenIssuer.ServiceAccount BOT = new TokenIssuer.ServiceAccount("team", "bot", "uid-bot");

    @TempDir
    Path dataDir;

    @Test
    void signsKubesClaimsWithTheDefaultAudience() throws Exception {
        TokensFixture f = new TokensFixture(dataDir, null);
        TokenIssuer.IssuedToken token = f.issuer().issue(BOT, List.of(), 3600, null);

        SignedJWT jwt = SignedJWT.parse(token.token());
        assertEquals("RS256", jwt.getHeader().getAlgorithm().getName());
        assertEquals(f.keys.keyId(), jwt.getHeader().getKeyID());
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertEquals(TokensFixture.ISSUER, claims.getIssuer());
        assertEquals("system:serviceaccount:team:bot", claims.getSubject());
        assertEquals(List.of(TokensFixture.ISSUER), claims.getAudience());
        assertEquals(f.now, claims.getIssueTime().toInstant());
        assertEquals(f.now, claims.getNotBeforeTime().toInstant());
        assertEquals(f.now.plusSeconds(3600), claims.getExpirationTime().toInstant());
        assertEquals(f.now.plusSeconds(3600), token.expiration());
        assertEquals(3600, token.expirationSeconds());
        assertFalse(claims.getJWTID().isEmpty());
        Map<String, Object> kubernetes = claims.getJSONObjectClaim("kubernetes.io");
        assertEquals("team", kubernetes.get("namespace"));
        assertEquals(Map.of("name", "bot", "uid", "uid-bot"), kubernetes.get("serviceaccount"));
        assertNull(kubernetes.get("pod"));
    }

    @Test
    void namesTheBoundObjectAndTheRequestedAudiences() throws Exception {
        TokensFixture f = new TokensFixture(dataDir, null);
        String token = f.issuer().issue(BOT, List.of("vault", "other"), 600,
                new TokenIssuer.BoundObject("Pod", "web-0", "uid-pod")).token();

        JWTClaimsSet claims = SignedJWT.parse(token).getJWTClaimsSet();
        assertEquals(List.of("vault", "other"), claims.getAudience());
        assertEquals(Map.of("name", "web-0", "uid", "uid-pod"), claims.getJSONObjectClaim("kubernetes.io").get("pod"));
        String secretBound = f.issuer().issue(BOT, List.of(), 600,
                new TokenIssuer.BoundObject("Secret", "s", "uid-s")).token();
        assertEquals(Map.of("name", "s", "uid", "uid-s"),
                SignedJWT.parse(secretBound).getJWTClaimsSet().getJSONObjectClaim("kubernetes.io").get("secret"));
    }

    @Test
    void eachTokenHasItsOwnId() throws Exception {
        TokensFixture f = new TokensFixture(dataDir, null);
        String a = f.issuer().issue(BOT, List.of(), 600, null).token();
        String b = f.issuer().issue(BOT, List.of(), 600, null).token();
        assertNotEquals(SignedJWT.parse(a).getJWTClaimsSet().getJWTID(), SignedJWT.parse(b).getJWTClaimsSet().getJWTID());
    }

    @Test
    void lifetimeIsCappedByTheMaximumAndRefusedBelowTenMinutes() throws Exception {
        TokensFixture f = new TokensFixture(dataDir, Duration.ofHours(2));
        TokenIssuer.IssuedToken capped = f.issuer().issue(BOT, List.of(), 86400, null);
        assertEquals(7200, capped.expirationSeconds());
        assertEquals(f.now.plusSeconds(7200), SignedJWT.parse(capped.token()).getJWTClaimsSet()
                .getExpirationTime().toInstant());
        assertEquals(3600, f.issuer().issue(BOT, List.of(), 3600, null).expirationSeconds());
        assertEquals(600, f.issuer().issue(BOT, List.of(), 600, null).expirationSeconds());
        assertThrows(IllegalArgumentException.class, () -> f.issuer().issue(BOT, List.of(), 599, null));
    }

    @Test
    void issueTimeIsWholeSeconds() {
        TokensFixture f = new TokensFixture(dataDir, null);
        f.now = Instant.parse("2026-01-01T00:00:00.750Z");
        assertEquals(Instant.parse("2026-01-01T01:00:00Z"), f.issuer().issue(BOT, List.of(), 3600, null).expiration());
    }

    @Test
    void refusesToBindOtherKinds() {
        TokensFixture f = new TokensFixture(dataDir, null);
        assertThrows(IllegalArgumentException.class, () -> f.issuer().issue(BOT, List.of(), 600,
                new TokenIssuer.BoundObject("Deployment", "d", "u")));
    }
}
