package io.kubelix.authn.oidc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.SignedJWT;
import io.kubelix.api.request.UserInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The verification of one issuer's ID tokens, as kube's OIDC authenticator with go-oidc does it:
 * the keys come from the {@code jwks_uri} of the issuer's discovery document (whose {@code issuer}
 * must be the configured URL), fetched over HTTPS verified with the configured CAs, refreshed when a
 * token names a key not seen yet; the signature must be by one of them with an allowed algorithm,
 * the token must be for one of the audiences and unexpired; then the claims are mapped to a user.
 * Discovery that fails is retried every 10 s, as kube's, and meanwhile tokens are refused.
 */
final class IssuerVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(IssuerVerifier.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RETRY = Duration.ofSeconds(10);
    /** go-oidc's leeway for a token's nbf. */
    private static final Duration NOT_BEFORE_LEEWAY = Duration.ofMinutes(5);

    private final JwtIssuer issuer;
    private final Clock clock;
    private final DefaultResourceRetriever retriever;
    private final List<JWSAlgorithm> algorithms;
    private volatile JWKSource<SecurityContext> keys;
    private volatile Instant nextAttempt = Instant.MIN;

    IssuerVerifier(JwtIssuer issuer, Clock clock) {
        this.issuer = issuer;
        this.clock = clock;
        this.retriever = new DefaultResourceRetriever(10_000, 10_000, 1 << 20, true, socketFactory(issuer.caPem()));
        this.algorithms = issuer.signingAlgs().stream().map(JWSAlgorithm::parse).toList();
    }

    JwtIssuer issuer() {
        return issuer;
    }

    /** Reads the discovery document now (at start), logging a failure; tokens retry it later. */
    void discover() {
        keys();
    }

    /**
     * Verifies a token whose {@code iss} names this issuer.
     *
     * @throws RefusedException saying why, in kube's words
     */
    UserInfo verify(SignedJWT jwt) throws RefusedException {
        JWKSource<SecurityContext> source = keys();
        if (source == null) {
            throw new RefusedException("oidc: authenticator not initialized");
        }
        JWSHeader header = jwt.getHeader();
        if (!algorithms.contains(header.getAlgorithm())) {
            throw new RefusedException("oidc: verify token: oidc: id token signed with unsupported algorithm, expected "
                    + issuer.signingAlgs() + " got \"" + header.getAlgorithm() + "\"");
        }
        if (!verified(jwt, source, header)) {
            throw new RefusedException("oidc: verify token: failed to verify signature: failed to verify id token "
                    + "signature");
        }
        Map<String, Object> claims;
        try {
            claims = jwt.getJWTClaimsSet().toJSONObject();
        } catch (ParseException e) {
            throw new RefusedException("oidc: verify token: oidc: malformed jwt payload: " + e.getMessage());
        }
        Claims c = new Claims(claims);
        checkTimes(c);
        List<String> aud = c.audiences();
        if (aud.stream().noneMatch(issuer.audiences()::contains)) {
            throw new RefusedException("oidc: verify token: oidc: expected audience in " + quoted(issuer.audiences())
                    + " got " + quoted(aud));
        }
        return ClaimMapping.user(issuer, c);
    }

    private void checkTimes(Claims c) throws RefusedException {
        Instant now = clock.instant();
        Instant exp = c.time("exp");
        if (exp == null) {
            throw new RefusedException("oidc: verify token: oidc: token has no expiry");
        }
        if (!now.isBefore(exp)) {
            throw new RefusedException("oidc: verify token: oidc: token is expired (Token Expiry: " + exp + ")");
        }
        Instant nbf = c.time("nbf");
        if (nbf != null && now.plus(NOT_BEFORE_LEEWAY).isBefore(nbf)) {
            throw new RefusedException("oidc: verify token: oidc: current time " + now + " before the nbf (not before)"
                    + " time: " + nbf);
        }
    }

    private boolean verified(SignedJWT jwt, JWKSource<SecurityContext> source, JWSHeader header)
            throws RefusedException {
        List<? extends Key> candidates;
        try {
            candidates = new JWSVerificationKeySelector<>(header.getAlgorithm(), source).selectJWSKeys(header, null);
        } catch (KeySourceException e) {
            throw new RefusedException("oidc: verify token: failed to verify signature: fetching keys " + e.getMessage());
        }
        DefaultJWSVerifierFactory verifiers = new DefaultJWSVerifierFactory();
        for (Key key : candidates) {
            try {
                JWSVerifier verifier = verifiers.createJWSVerifier(header, key);
                if (jwt.verify(verifier)) {
                    return true;
                }
            } catch (JOSEException e) {
                // try the next key
            }
        }
        return false;
    }

    /**
     * The issuer's keys, discovering them first when that has not worked yet and the last attempt
     * is 10 s old. A request that arrives while discovery is under way waits for it.
     */
    private JWKSource<SecurityContext> keys() {
        JWKSource<SecurityContext> source = keys;
        if (source != null) {
            return source;
        }
        synchronized (this) {
            if (keys == null && !clock.instant().isBefore(nextAttempt)) {
                try {
                    keys = discoverKeys();
                    LOG.info("OIDC issuer {}: keys from {}", issuer.url(), issuer.discoveryLocation());
                } catch (IOException | RuntimeException e) {
                    LOG.error("oidc authenticator: initializing plugin for issuer {}: {} (retried in {} s)",
                            issuer.url(), e.getMessage(), RETRY.toSeconds());
                    nextAttempt = clock.instant().plus(RETRY);
                }
            }
            return keys;
        }
    }

    private JWKSource<SecurityContext> discoverKeys() throws IOException {
        String location = issuer.discoveryLocation();
        JsonNode discovery = JSON.readTree(retriever.retrieveResource(URI.create(location).toURL()).getContent());
        String advertised = discovery.path("issuer").asText("");
        if (!advertised.equals(issuer.url())) {
            throw new IOException("oidc: issuer did not match the issuer returned by provider, expected \""
                    + issuer.url() + "\" got \"" + advertised + "\"");
        }
        String jwksUri = discovery.path("jwks_uri").asText("");
        if (jwksUri.isEmpty()) {
            throw new IOException("the discovery document at " + location + " has no jwks_uri");
        }
        JWKSource<SecurityContext> source = JWKSourceBuilder.<SecurityContext>create(URI.create(jwksUri).toURL(),
                retriever).build();
        return source;
    }

    private static SSLSocketFactory socketFactory(String caPem) {
        if (caPem.isEmpty()) {
            return null;
        }
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)))) {
                trust.setCertificateEntry("ca-" + i++, c);
            }
            if (i == 0) {
                throw new IllegalArgumentException("the issuer's certificate authority holds no certificate");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl.getSocketFactory();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("the issuer's certificate authority is not PEM certificates: "
                    + e.getMessage(), e);
        }
    }

    static String quoted(List<String> values) {
        List<String> q = new ArrayList<>();
        values.forEach(v -> q.add("\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\""));
        return "[" + String.join(" ", q) + "]";
    }

    /** Why a token of this issuer is refused. */
    static final class RefusedException extends Exception {
        RefusedException(String message) {
            super(message);
        }
    }
}
