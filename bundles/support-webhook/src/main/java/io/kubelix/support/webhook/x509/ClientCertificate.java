package io.kubelix.support.webhook.x509;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

import javax.crypto.spec.PBEParameterSpec;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The client certificate a webhook client presents, from a kubeconfig user's PEM
 * {@code client-certificate} and {@code client-key}: the key may be PKCS#8 ({@code PRIVATE KEY}),
 * PKCS#1 ({@code RSA PRIVATE KEY}) or SEC 1 ({@code EC PRIVATE KEY}), as Go's
 * {@code tls.X509KeyPair} reads them. In a package of its own so that only the plugins presenting
 * one import Bouncy Castle.
 */
public final class ClientCertificate {
    private static final SecureRandom SALTS = new SecureRandom();

    private ClientCertificate() {
    }

    /**
     * Key managers presenting the pair, for an SSLContext.
     *
     * @throws GeneralSecurityException when the certificate or the key cannot be read, saying which
     */
    public static KeyManager[] keyManagers(byte[] certPem, byte[] keyPem) throws GeneralSecurityException {
        Certificate[] chain = certificates(certPem).toArray(Certificate[]::new);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try {
            keys.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        // The store lives only in memory and is never written, so the JDK's 10,000 PBKDF2 iterations
        // would protect nothing; they cost each client two key derivations (sealing and unsealing).
        byte[] salt = new byte[20];
        SALTS.nextBytes(salt);
        keys.setEntry("client", new KeyStore.PrivateKeyEntry(privateKey(keyPem), chain),
                new KeyStore.PasswordProtection(new char[0], "PBEWithHmacSHA256AndAES_256", new PBEParameterSpec(salt, 1)));
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, new char[0]);
        return factory.getKeyManagers();
    }

    /**
     * The certificates of a PEM text, the client's own first and then those chaining it to a CA.
     *
     * @throws GeneralSecurityException when there is none or one cannot be read
     */
    public static List<X509Certificate> certificates(byte[] pem) throws GeneralSecurityException {
        List<X509Certificate> chain = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem)).stream().map(X509Certificate.class::cast).toList();
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("the client certificate holds no PEM certificate");
        }
        return chain;
    }

    /** The first private key of a PEM text, as a JDK key (also the CSR signer's CA key). */
    public static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
        try (PEMParser parser = new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)))) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (o instanceof PEMKeyPair pair) {
                    // The private half alone: a SEC 1 key may leave out its public key.
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
            }
        } catch (IOException e) {
            throw new GeneralSecurityException("the client key cannot be read: " + e.getMessage(), e);
        }
        throw new GeneralSecurityException("the client key holds no unencrypted PEM private key");
    }
}
