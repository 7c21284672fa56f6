package io.kubelix.authn.x509;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.ClusterAuthenticationInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.support.flags.TestCa;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's x509 authenticator: chain, validity and usage checked; CN the user, O the groups; the CA file reloaded. */
class ClientCertificateAuthenticatorTest {
    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

    @TempDir
    Path dir;

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void aCertificateOfTheClientCAAuthenticatesAsItsCommonNameInItsOrganizations() throws Exception {
        TestCa ca = new TestCa("client-ca", NOW);
        ClientCertificateAuthenticator x509 = authenticator(ca);

        Optional<UserInfo> user = x509.authenticate(request(ca.issue("alice", List.of("devs", "ops"),
                KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(60), NOW.plusSeconds(3600))));

        assertEquals(Optional.of(new UserInfo("alice", "", List.of("devs", "ops", UserInfo.ALL_AUTHENTICATED),
                Map.of())), user);
        assertTrue(x509.authenticate(request()).isEmpty(), "no certificate, no user");
    }

    @Test
    void certificatesThatDoNotVerifyAreNotRecognised() throws Exception {
        TestCa ca = new TestCa("client-ca", NOW);
        TestCa other = new TestCa("other-ca", NOW);
        ClientCertificateAuthenticator x509 = authenticator(ca);

        assertTrue(x509.authenticate(request(other.issue("mallory", List.of("system:masters"),
                KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(60), NOW.plusSeconds(3600)))).isEmpty(), "another CA");
        assertTrue(x509.authenticate(request(ca.issue("alice", List.of(), KeyPurposeId.id_kp_clientAuth,
                NOW.minusSeconds(7200), NOW.minusSeconds(3600)))).isEmpty(), "expired");
        assertTrue(x509.authenticate(request(ca.issue("alice", List.of(), KeyPurposeId.id_kp_serverAuth,
                NOW.minusSeconds(60), NOW.plusSeconds(3600)))).isEmpty(), "a serving certificate");
        assertTrue(x509.authenticate(request(ca.issue("", List.of("devs"), KeyPurposeId.id_kp_clientAuth,
                NOW.minusSeconds(60), NOW.plusSeconds(3600)))).isEmpty(), "no common name");
    }

    @Test
    void theClientCAFileIsReloadedWhenItChanges() throws Exception {
        TestCa first = new TestCa("first", NOW);
        TestCa second = new TestCa("second", NOW);
        ClientCertificateAuthenticator x509 = authenticator(first);
        X509Certificate bySecond = second.issue("bob", List.of(), KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(60),
                NOW.plusSeconds(3600));
        assertTrue(x509.authenticate(request(bySecond)).isEmpty());

        Path file = dir.resolve("ca.crt");
        Files.writeString(file, first.pem() + second.pem(), StandardCharsets.US_ASCII);
        Files.setLastModifiedTime(file, FileTime.from(NOW.plusSeconds(5)));
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());

        assertEquals("bob", x509.authenticate(request(bySecond)).orElseThrow().name());
    }

    @Test
    void theCAFileIsPublishedForExtensionServers() throws Exception {
        ClientCertificateAuthenticator x509 = authenticator(new TestCa("clients", NOW));
        assertEquals(ClusterAuthenticationInfo.clientCA(dir.resolve("ca.crt")), x509.clusterAuthenticationInfo());
    }

    private ClientCertificateAuthenticator authenticator(TestCa ca) throws Exception {
        Path file = dir.resolve("ca.crt");
        Files.writeString(file, ca.pem(), StandardCharsets.US_ASCII);
        return new ClientCertificateAuthenticator(file, Duration.ofSeconds(1), nanos::get,
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static AuthenticationRequest request(X509Certificate... chain) {
        return new AuthenticationRequest() {
            @Override
            public String header(String name) {
                return null;
            }

            @Override
            public List<X509Certificate> peerCertificates() {
                return List.of(chain);
            }

            @Override
            public String remoteAddress() {
                return "127.0.0.1";
            }
        };
    }
}
