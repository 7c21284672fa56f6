package io.kubelix.authn.x509;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.request.UserInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
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
        Ca ca = new Ca("client-ca");
        ClientCertificateAuthenticator x509 = authenticator(ca);

        Optional<UserInfo> user = x509.authenticate(request(ca.issue("alice", List.of("devs", "ops"),
                KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(60), NOW.plusSeconds(3600))));

        assertEquals(Optional.of(new UserInfo("alice", "", List.of("devs", "ops", UserInfo.ALL_AUTHENTICATED),
                Map.of())), user);
        assertTrue(x509.authenticate(request()).isEmpty(), "no certificate, no user");
    }

    @Test
    void certificatesThatDoNotVerifyAreNotRecognised() throws Exception {
        Ca ca = new Ca("client-ca");
        Ca other = new Ca("other-ca");
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
        Ca first = new Ca("first");
        Ca second = new Ca("second");
        ClientCertificateAuthenticator x509 = authenticator(first);
        X509Certificate bySecond = second.issue("bob", List.of(), KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(60),
                NOW.plusSeconds(3600));
        assertTrue(x509.authenticate(request(bySecond)).isEmpty());

        Path file = dir.resolve("ca.crt");
        Files.writeString(file, pem(first.certificate) + pem(second.certificate), StandardCharsets.US_ASCII);
        Files.setLastModifiedTime(file, FileTime.from(NOW.plusSeconds(5)));
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());

        assertEquals("bob", x509.authenticate(request(bySecond)).orElseThrow().name());
    }

    private ClientCertificateAuthenticator authenticator(Ca ca) throws Exception {
        Path file = dir.resolve("ca.crt");
        Files.writeString(file, pem(ca.certificate), StandardCharsets.US_ASCII);
        return new ClientCertificateAuthenticator(file, Duration.ofSeconds(1), nanos::get,
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static String pem(X509Certificate c) throws Exception {
        return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(c.getEncoded()) + "\n-----END CERTIFICATE-----\n";
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

    /** A test CA issuing client certificates. */
    private static final class Ca {
        final KeyPair keys;
        final X509Certificate certificate;
        private long serial = 2;

        Ca(String name) throws Exception {
            keys = newKeys();
            X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, name).build();
            certificate = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject,
                    BigInteger.ONE, Date.from(NOW.minusSeconds(86_400)), Date.from(NOW.plusSeconds(86_400)), subject,
                    keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
        }

        X509Certificate issue(String cn, List<String> organizations, KeyPurposeId usage, Instant from, Instant to)
                throws Exception {
            X500NameBuilder name = new X500NameBuilder(BCStyle.INSTANCE);
            organizations.forEach(o -> name.addRDN(BCStyle.O, o));
            if (!cn.isEmpty()) {
                name.addRDN(BCStyle.CN, cn);
            }
            return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                    new X500Name(certificate.getSubjectX500Principal().getName()), BigInteger.valueOf(serial++),
                    Date.from(from), Date.from(to), name.build(), newKeys().getPublic())
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(usage))
                    .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
        }

        private static KeyPair newKeys() throws Exception {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(256);
            return g.generateKeyPair();
        }
    }
}
