package io.kubelix.runtime.bootstrap;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * Issues the cluster CA and serving certificates with BouncyCastle. Keys are ECDSA P-256, which Go
 * (kubectl, client-go) and JSSE accept; an existing RSA CA is signed with as well. BouncyCastle is
 * used through an explicit {@link Provider} object, never registered globally, because inside OSGi
 * a global registration would outlive an update of the BouncyCastle bundle.
 */
final class CertificateIssuer {

    /** Certificates start this long in the past, so a client whose clock is a little behind accepts them. */
    private static final Duration BACKDATE = Duration.ofHours(1);

    private final Provider bouncyCastle;
    private final SecureRandom random;
    private final Clock clock;

    CertificateIssuer(Provider bouncyCastle, SecureRandom random, Clock clock) {
        this.bouncyCastle = bouncyCastle;
        this.random = random;
        this.clock = clock;
    }

    /** A new P-256 key pair, made by the JDK so JSSE can use it directly. */
    KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot generate EC P-256 keys", e);
        }
    }

    /** A self-signed CA certificate that may sign any certificate (no path length limit). */
    X509Certificate selfSignedCa(KeyPair keys, String commonName, Duration validity) {
        Instant now = clock.instant();
        X500Name subject = name(commonName);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serialNumber(),
                    Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), subject, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            return sign(builder, keys.getPrivate());
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot build the CA certificate " + commonName, e);
        }
    }

    /** A TLS server certificate for {@code names}, signed by the CA. */
    X509Certificate servingCertificate(PublicKey key, String commonName, SubjectAltNames names,
                                       X509Certificate ca, PrivateKey caKey, Duration validity) {
        Instant now = clock.instant();
        boolean rsa = "RSA".equals(key.getAlgorithm());
        int usage = KeyUsage.digitalSignature | (rsa ? KeyUsage.keyEncipherment : 0);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca, serialNumber(),
                    Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), name(commonName), key)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(usage))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(key))
                    .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(ca))
                    .addExtension(Extension.subjectAlternativeName, false, names.toGeneralNames());
            return sign(builder, caKey);
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot build the serving certificate for " + names, e);
        }
    }

    /**
     * A TLS client certificate signed by the CA: its common name is the user, each organization a
     * group, as kube-apiserver's x509 authenticator reads them.
     */
    X509Certificate clientCertificate(PublicKey key, String commonName, List<String> organizations,
                                      X509Certificate ca, PrivateKey caKey, Duration validity) {
        Instant now = clock.instant();
        X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
        organizations.forEach(o -> subject.addRDN(BCStyle.O, o));
        subject.addRDN(BCStyle.CN, commonName);
        boolean rsa = "RSA".equals(key.getAlgorithm());
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca, serialNumber(),
                    Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), subject.build(), key)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | (rsa ? KeyUsage.keyEncipherment : 0)))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth))
                    .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(ca));
            return sign(builder, caKey);
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot build the client certificate of " + commonName, e);
        }
    }

    /** Whether {@code key} is the private half of the certificate's public key: it signs, the certificate verifies. */
    boolean matches(PrivateKey key, X509Certificate certificate) {
        if (!key.getAlgorithm().equals(certificate.getPublicKey().getAlgorithm())) {
            return false;
        }
        try {
            byte[] challenge = new byte[32];
            random.nextBytes(challenge);
            String algorithm = signatureAlgorithm(key);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(challenge);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    private X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signingKey) throws GeneralSecurityException {
        try {
            ContentSigner signer = new JcaContentSignerBuilder(signatureAlgorithm(signingKey))
                    .setProvider(bouncyCastle).setSecureRandom(random).build(signingKey);
            X509CertificateHolder holder = builder.build(signer);
            // Re-parse with the JDK so the certificate object is a plain JDK one.
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(holder.getEncoded()));
        } catch (OperatorCreationException | IOException e) {
            throw new GeneralSecurityException("cannot sign with a " + signingKey.getAlgorithm() + " key", e);
        }
    }

    private static String signatureAlgorithm(PrivateKey key) {
        return switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            default -> throw new IllegalArgumentException("unsupported key algorithm " + key.getAlgorithm()
                    + " (use an EC or RSA key)");
        };
    }

    /** A positive 128-bit serial, as Go's certificate helpers make (RFC 5280 allows up to 20 octets). */
    private BigInteger serialNumber() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        BigInteger serial = new BigInteger(1, bytes);
        return serial.signum() == 0 ? BigInteger.ONE : serial;
    }

    private static X500Name name(String commonName) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
    }
}
