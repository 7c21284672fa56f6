package io.kubelix.runtime.bootstrap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * kube-apiserver's {@code --tls-cert-file} and {@code --tls-private-key-file}: an operator's own
 * serving certificate (its chain after it, as kube reads the file) and its key, in PEM, used instead
 * of the certificate the data directory issues. The key must be the certificate's.
 */
public record CertKeyFiles(Path certFile, Path keyFile) {

    /** What identifies the files' current versions without reading them (modification time and size). */
    public List<Object> stamp() {
        try {
            BasicFileAttributes cert = Files.readAttributes(certFile, BasicFileAttributes.class);
            BasicFileAttributes key = Files.readAttributes(keyFile, BasicFileAttributes.class);
            return List.of(cert.lastModifiedTime(), cert.size(), key.lastModifiedTime(), key.size());
        } catch (IOException e) {
            return List.of(e.getClass().getName());
        }
    }

    /**
     * Reads both files.
     *
     * @throws IllegalArgumentException saying which file is wrong and how
     */
    public ServingKeys load() {
        return load("--tls-cert-file", "--tls-private-key-file");
    }

    /** Reads both files, naming the flags they were given with in what is wrong. */
    public ServingKeys load(String certFlag, String keyFlag) {
        List<X509Certificate> chain;
        try {
            chain = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(certFile))).stream()
                    .map(X509Certificate.class::cast).toList();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(certFlag + " " + certFile + " does not exist");
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException(certFlag + " " + certFile + " is not PEM certificates: "
                    + e.getMessage());
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(certFlag + " " + certFile + " holds no certificate");
        }
        PrivateKey key;
        try {
            key = PemFiles.readPrivateKey(keyFile);
        } catch (IOException | IllegalStateException e) {
            throw new IllegalArgumentException(keyFlag + " " + keyFile + ": " + e.getMessage());
        }
        if (!matches(key, chain.get(0).getPublicKey())) {
            throw new IllegalArgumentException(keyFlag + " " + keyFile + " is not the key of " + certFlag + " "
                    + certFile + " (tls: private key does not match public key)");
        }
        char[] password = new char[24];
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < password.length; i++) {
            password[i] = (char) ('a' + random.nextInt(26));
        }
        try {
            KeyStore store = ServingKeys.inMemoryStore("kubelix-apiserver", key, password,
                    chain.toArray(new Certificate[0]));
            return new ServingKeys(store, password, certFile + " (" + chain.get(0).getSubjectX500Principal().getName()
                    + ", valid until " + chain.get(0).getNotAfter().toInstant() + ")");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot serve " + certFile + ": " + e.getMessage(), e);
        }
    }

    /** Whether a signature by the private key verifies with the public key. */
    private static boolean matches(PrivateKey key, PublicKey certified) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null || !key.getAlgorithm().equals(certified.getAlgorithm())
                && !(key.getAlgorithm().startsWith("Ed") && certified.getAlgorithm().startsWith("Ed"))) {
            return false;
        }
        try {
            byte[] probe = new byte[32];
            new SecureRandom().nextBytes(probe);
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(certified);
            verify.update(probe);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
