package io.kubelix.runtime.bootstrap;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
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
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

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
        // The JDK's own key factories (no provider set) turn the key into a JDK key object.
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try {
            if (parsed instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            }
            if (parsed instanceof PEMKeyPair pair) {
                return converter.getKeyPair(pair).getPrivate();
            }
        } catch (IOException | RuntimeException e) {
            throw corrupt(file, "holds a private key this server cannot use", e);
        }
        String found = parsed == null ? "nothing" : parsed.getClass().getSimpleName();
        throw corrupt(file, "should hold an unencrypted PEM private key but holds " + found, null);
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
