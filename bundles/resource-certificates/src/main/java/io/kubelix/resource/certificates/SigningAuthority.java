package io.kubelix.resource.certificates;

import io.kubelix.support.flags.FrameworkProperties;
import io.kubelix.support.time.GoDuration;
import io.kubelix.support.webhook.x509.ClientCertificate;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.asn1.x500.X500Name;
import org.osgi.framework.BundleContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * The CA a signer issues with (kube-controller-manager's {@code --cluster-signing-cert-file} and
 * {@code --cluster-signing-key-file}), by default the data directory's cluster CA
 * ({@code pki/ca.crt}, {@code pki/ca.key}), which the x509 authenticator trusts by default. The
 * files are read at each signing, so a rotated CA is used without a restart. Certificates are issued
 * as kube's PermissiveSigningPolicy does: the request's subject, SANs and key, the requested usages,
 * no CA, valid from five minutes ago for the TTL, never beyond the CA.
 */
final class SigningAuthority {
    static final String CERT_FILE = "kubelix.cluster-signing-cert-file";
    static final String KEY_FILE = "kubelix.cluster-signing-key-file";
    static final String DURATION = "kubelix.cluster-signing-duration";
    static final Duration DEFAULT_DURATION = Duration.ofHours(8760);
    /** kube's backdate, against clocks that are slightly behind. */
    static final Duration BACKDATE = Duration.ofMinutes(5);

    private final Path certFile;
    private final Path keyFile;
    private final SecureRandom random = new SecureRandom();

    SigningAuthority(Path certFile, Path keyFile) {
        this.certFile = certFile;
        this.keyFile = keyFile;
    }

    /** The CA the framework properties name, else the data directory's. */
    static SigningAuthority configured(BundleContext context) {
        String dataDir = FrameworkProperties.withContainerDefaults(context::getProperty).apply(FrameworkProperties.DATA_DIR);
        Path pki = Path.of(dataDir == null || dataDir.isBlank() ? ".kubelix" : dataDir, "pki");
        return new SigningAuthority(path(context.getProperty(CERT_FILE), pki.resolve("ca.crt")),
                path(context.getProperty(KEY_FILE), pki.resolve("ca.key")));
    }

    /** {@code --cluster-signing-duration}: the longest validity issued (default 8760h, one year). */
    static Duration duration(BundleContext context) {
        String value = context.getProperty(DURATION);
        return value == null || value.isBlank() ? DEFAULT_DURATION : GoDuration.parseFlag("--cluster-signing-duration", value);
    }

    private static Path path(String configured, Path fallback) {
        return (configured == null || configured.isBlank() ? fallback : Path.of(configured)).toAbsolutePath();
    }

    @Override
    public String toString() {
        return certFile + " and " + keyFile;
    }

    /**
     * Issues a certificate for {@code request}.
     *
     * @return the certificate, PEM
     * @throws GeneralSecurityException when the CA files cannot be read or used
     */
    byte[] sign(PKCS10CertificationRequest request, List<String> usages, Duration ttl, Instant now)
            throws GeneralSecurityException, IOException {
        X509Certificate ca = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(certFile)));
        PrivateKey key = ClientCertificate.privateKey(Files.readAllBytes(keyFile));
        Instant notBefore = now.minus(BACKDATE);
        Instant notAfter = notBefore.plus(ttl);
        if (notAfter.isAfter(ca.getNotAfter().toInstant())) {
            notAfter = ca.getNotAfter().toInstant();
        }
        SubjectPublicKeyInfo publicKey = request.getSubjectPublicKeyInfo();
        X509v3CertificateBuilder builder = new X509v3CertificateBuilder(
                X500Name.getInstance(new JcaX509CertificateHolder(ca).getSubject()),
                new BigInteger(128, random), Date.from(notBefore), Date.from(notAfter), request.getSubject(), publicKey);
        JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
        int keyUsage = 0;
        List<KeyPurposeId> extended = new ArrayList<>();
        for (String usage : usages) {
            Integer bit = KeyUsages.KEY_USAGE.get(usage);
            if (bit != null) {
                keyUsage |= bit;
            } else if (!extended.contains(KeyUsages.EXT_KEY_USAGE.get(usage))) {
                extended.add(KeyUsages.EXT_KEY_USAGE.get(usage));
            }
        }
        if (keyUsage != 0) {
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage));
        }
        if (!extended.isEmpty()) {
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(extended.toArray(KeyPurposeId[]::new)));
        }
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.authorityKeyIdentifier, false, utils.createAuthorityKeyIdentifier(ca));
        var sans = request.getRequestedExtensions() == null ? null
                : request.getRequestedExtensions().getExtension(Extension.subjectAlternativeName);
        if (sans != null) {
            builder.addExtension(Extension.subjectAlternativeName, false, sans.getParsedValue());
        }
        try {
            var signer = new JcaContentSignerBuilder(switch (key.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC" -> "SHA256withECDSA";
                case "Ed25519", "EdDSA" -> "Ed25519";
                default -> throw new GeneralSecurityException("unsupported CA key algorithm " + key.getAlgorithm());
            }).build(key);
            return PemBlocks.encode(PemBlocks.CERTIFICATE, builder.build(signer).getEncoded())
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign with the CA key of " + keyFile + ": " + e.getMessage(), e);
        }
    }
}
