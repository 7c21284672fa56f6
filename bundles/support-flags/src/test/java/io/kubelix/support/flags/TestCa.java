package io.kubelix.support.flags;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

/**
 * A CA for tests that issues client certificates (CN the user, O the groups), valid a day either
 * side of the instant it is made for. Shared by the plugins' tests through support-flags' test jar.
 */
public final class TestCa {
    public final X509Certificate certificate;
    private final KeyPair keys;
    private long serial = 2;

    public TestCa(String name, Instant now) throws Exception {
        keys = newKeys();
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, name).build();
        certificate = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject,
                BigInteger.ONE, Date.from(now.minusSeconds(86_400)), Date.from(now.plusSeconds(86_400)), subject,
                keys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }

    /** A certificate for {@code cn} (none when empty) in {@code organizations}, with one extended key usage. */
    public X509Certificate issue(String cn, List<String> organizations, KeyPurposeId usage, Instant from, Instant to)
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

    /** A serving certificate for 127.0.0.1 and localhost, with its private key. */
    public Issued issueServer(String cn, Instant from, Instant to) throws Exception {
        KeyPair serverKeys = newKeys();
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                new X500Name(certificate.getSubjectX500Principal().getName()), BigInteger.valueOf(serial++),
                Date.from(from), Date.from(to), new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, cn).build(),
                serverKeys.getPublic())
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[]{
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")}))
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
        return new Issued(cert, serverKeys.getPrivate());
    }

    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {
    }

    /** The CA certificate in PEM. */
    public String pem() throws Exception {
        return pem(certificate);
    }

    public static String pem(X509Certificate c) throws Exception {
        return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(c.getEncoded()) + "\n-----END CERTIFICATE-----\n";
    }

    private static KeyPair newKeys() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }
}
