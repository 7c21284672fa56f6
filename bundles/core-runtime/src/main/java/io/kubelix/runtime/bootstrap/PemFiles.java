package io.kubelix.runtime.bootstrap;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;

/**
 * PEM encoding of certificates ({@code CERTIFICATE}) and private keys (PKCS#8 {@code PRIVATE KEY},
 * as Go's {@code tls.LoadX509KeyPair} and OpenSSL read them). Certificates and keys come back as
 * JDK objects, so JSSE and the PKCS12 key store never see a BouncyCastle class.
 */
final class PemFiles {

    private PemFiles() {
    }

    static String encode(X509Certificate certificate) {
        try {
            return encode(new PemObject("CERTIFICATE", certificate.getEncoded()));
        } catch (CertificateException e) {
            throw new IllegalStateException("cannot encode certificate " + certificate.getSubjectX500Principal(), e);
        }
    }

    static String encode(PrivateKey key) {
        return encode(new PemObject("PRIVATE KEY", key.getEncoded()));
    }

    /** Reads the first certificate of a PEM file; the message of any failure names the file and the fix. */
    static X509Certificate readCertificate(Path file) throws IOException {
        byte[] bytes = read(file);
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            return (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(bytes));
        } catch (CertificateException | ClassCastException e) {
            throw corrupt(file, "is not a PEM certificate", e);
        }
    }

    /** Reads a private key in PKCS#8 ({@code PRIVATE KEY}), SEC1 ({@code EC PRIVATE KEY}) or PKCS#1 form. */
    static PrivateKey readPrivateKey(Path file) throws IOException {
        String text = new String(read(file), StandardCharsets.US_ASCII);
        Object parsed;
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            parsed = parser.readObject();
        } catch (IOException | RuntimeException e) {
            throw corrupt(file, "is not a PEM private key", e);
        }
        PrivateKeyInfo info = parsed instanceof PrivateKeyInfo i ? i
                : parsed instanceof PEMKeyPair pair ? pair.getPrivateKeyInfo() : null;
        if (info == null) {
            String found = parsed == null ? "nothing" : parsed.getClass().getSimpleName();
            throw corrupt(file, "should hold an unencrypted PEM private key but holds " + found, null);
        }
        try {
            return toKey(info);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw corrupt(file, "holds a private key this server cannot use", e);
        }
    }

    /**
     * EC and RSA keys come from the key factory named "EC" or "RSA", whose keys say "EC" or "RSA"
     * whatever provider serves them. BouncyCastle's converter asks for "ECDSA" first, which a
     * BouncyCastle provider registered in the JVM (Karaf's SSH server registers one) answers with a
     * key named "ECDSA": the CA key then matched no certificate, and a restart failed.
     */
    private static PrivateKey toKey(PrivateKeyInfo info) throws IOException, GeneralSecurityException {
        ASN1ObjectIdentifier oid = info.getPrivateKeyAlgorithm().getAlgorithm();
        String algorithm = X9ObjectIdentifiers.id_ecPublicKey.equals(oid) ? "EC"
                : PKCSObjectIdentifiers.rsaEncryption.equals(oid) ? "RSA" : null;
        if (algorithm == null) {
            return new JcaPEMKeyConverter().getPrivateKey(info);
        }
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(info.getEncoded()));
    }

    private static byte[] read(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IOException("cannot read " + file + ": " + e.getMessage()
                    + " (check its permissions, or delete it to have it regenerated)", e);
        }
    }

    static IllegalStateException corrupt(Path file, String what, Throwable cause) {
        return new IllegalStateException(file + " " + what
                + "; delete it to have it regenerated at the next start", cause);
    }

    private static String encode(PemObject object) {
        StringWriter out = new StringWriter();
        try (PemWriter writer = new PemWriter(out)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + object.getType(), e);
        }
        return out.toString();
    }
}
