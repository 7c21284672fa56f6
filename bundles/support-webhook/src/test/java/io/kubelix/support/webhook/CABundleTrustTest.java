package io.kubelix.support.webhook;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The names a webhook's certificate must carry, as kube's clients check them. */
class CABundleTrustTest {
    private static X509Certificate cert;

    @BeforeAll
    static void certificate() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        KeyPair keys = g.generateKeyPair();
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name("CN=webhook"), BigInteger.ONE,
                Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.HOURS)),
                new X500Name("CN=webhook"), keys.getPublic());
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "webhook.hooks.svc"),
                new GeneralName(GeneralName.dNSName, "*.example.com"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "::1")}));
        cert = new JcaX509CertificateConverter().getCertificate(b.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }

    @Test
    void aServiceNameOrAnAddressMustBeAmongTheSubjectAlternativeNames() throws Exception {
        assertTrue(CABundleTrust.names(cert, "webhook.hooks.svc"));
        assertTrue(CABundleTrust.names(cert, "WEBHOOK.hooks.svc."));
        assertTrue(CABundleTrust.names(cert, "127.0.0.1"));
        assertTrue(CABundleTrust.names(cert, "[::1]"));
        assertFalse(CABundleTrust.names(cert, "other.hooks.svc"));
        assertFalse(CABundleTrust.names(cert, "127.0.0.2"));
        assertFalse(CABundleTrust.names(cert, "webhook"), "the common name does not count");
    }

    @Test
    void aWildcardCoversOneLabel() throws Exception {
        assertTrue(CABundleTrust.names(cert, "hooks.example.com"));
        assertFalse(CABundleTrust.names(cert, "a.b.example.com"));
        assertFalse(CABundleTrust.names(cert, "example.com"));
    }

    @Test
    void aBundleWithoutCertificatesIsRefused() {
        assertThrows(GeneralSecurityException.class,
                () -> CABundleTrust.sslContext("not a certificate".getBytes(StandardCharsets.US_ASCII), "x"));
    }
}
