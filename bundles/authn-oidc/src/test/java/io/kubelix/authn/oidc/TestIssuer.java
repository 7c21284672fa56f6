package io.kubelix.authn.oidc;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubelix.support.flags.TestCa;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenID Connect provider on loopback HTTPS (its own CA): the discovery document and a JWKS
 * whose keys can be rotated, and ID tokens signed with the current key.
 */
final class TestIssuer implements AutoCloseable {
    final TestCa ca;
    final String url;
    final AtomicInteger jwksFetches = new AtomicInteger();
    private final HttpsServer server;
    private final List<RSAKey> keys = new ArrayList<>();

    TestIssuer() throws Exception {
        Instant now = Instant.now();
        ca = new TestCa("oidc-ca", now);
        TestCa.Issued serving = ca.issueServer("127.0.0.1", now.minusSeconds(60), now.plusSeconds(3600));
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("serving", serving.key(), new char[0], new Certificate[]{serving.certificate()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, new char[0]);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        url = "https://127.0.0.1:" + server.getAddress().getPort() + "/realm";
        rotate();
        server.createContext("/realm/.well-known/openid-configuration", exchange -> {
            byte[] body = ("{\"issuer\":\"" + url + "\",\"jwks_uri\":\"" + url + "/keys\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/realm/keys", exchange -> {
            jwksFetches.incrementAndGet();
            byte[] body;
            synchronized (keys) {
                body = new JWKSet(new ArrayList<>(keys.stream().map(RSAKey::toPublicJWK).toList())).toString()
                        .getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** A new signing key; the JWKS then publishes it beside the earlier ones. */
    void rotate() throws Exception {
        synchronized (keys) {
            keys.add(new RSAKeyGenerator(2048).keyID("key-" + keys.size()).generate());
        }
    }

    /** A token signed with the current key, with these claims and kube's usual ones filled in. */
    String token(Map<String, Object> claims) throws Exception {
        Instant now = Instant.now();
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder().issuer(url).audience("kubelix")
                .issueTime(java.util.Date.from(now)).expirationTime(java.util.Date.from(now.plusSeconds(600)));
        claims.forEach(builder::claim);
        RSAKey key;
        synchronized (keys) {
            key = keys.get(keys.size() - 1);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                .type(JOSEObjectType.JWT).build(), builder.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
