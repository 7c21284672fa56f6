package io.kubelix.runtime.bootstrap;

import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * The server's data directory, prepared at every start so that the server is secure from the
 * first one:
 * <pre>
 * dir/
 *   pki/ca.crt, pki/ca.key                 the cluster CA "kubelix-ca" (10 years)
 *   pki/apiserver.crt, pki/apiserver.key   the serving certificate, signed by the CA (1 year)
 *   tokens.csv                             --token-auth-file, with the admin token (system:masters)
 *   admin.kubeconfig                       written by {@link #writeKubeconfig}
 * </pre>
 * What is missing is created, what exists is reused byte for byte; the serving certificate alone
 * is re-issued (from the same CA) when it lacks a requested name, expires within 30 days or no
 * longer matches its key or the CA. The CA is never replaced on its own: that would break every
 * client that trusts it. Key and token files are owner-only where the file system is POSIX.
 */
public final class DataDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(DataDirectory.class);

    static final String CA_NAME = "kubelix-ca";
    static final String SERVING_NAME = "kubelix-apiserver";
    static final Duration CA_VALIDITY = Duration.ofDays(3650);
    static final Duration SERVING_VALIDITY = Duration.ofDays(365);
    static final Duration RENEW_BEFORE = Duration.ofDays(30);
    private static final String KEY_ALIAS = "kubelix-apiserver";

    private final Path dir;
    private final Path caCertificate;
    private final Path tokenFile;
    private final X509Certificate ca;
    private final X509Certificate serving;
    private final PrivateKey servingKey;
    private final String adminToken;
    private final char[] keyStorePassword;

    private DataDirectory(Path dir, X509Certificate ca, X509Certificate serving, PrivateKey servingKey,
                          String adminToken, char[] keyStorePassword) {
        this.dir = dir;
        this.caCertificate = dir.resolve("pki").resolve("ca.crt");
        this.tokenFile = dir.resolve("tokens.csv");
        this.ca = ca;
        this.serving = serving;
        this.servingKey = servingKey;
        this.adminToken = adminToken;
        this.keyStorePassword = keyStorePassword;
    }

    /**
     * Creates what is missing in {@code dir} and reuses what exists.
     *
     * @param servingHosts host names and IP addresses the serving certificate must cover besides
     *                     127.0.0.1, ::1 and localhost
     * @throws IOException              when a file cannot be read or written
     * @throws IllegalStateException    when a file is corrupt or files do not fit together; the
     *                                  message names the file and what to do
     * @throws IllegalArgumentException when a serving host is neither an IP address nor a DNS name
     */
    public static DataDirectory prepare(Path dir, List<String> servingHosts) throws IOException {
        return prepare(dir, servingHosts, Clock.systemUTC());
    }

    static DataDirectory prepare(Path dir, List<String> servingHosts, Clock clock) throws IOException {
        Path root = dir.toAbsolutePath().normalize();
        SubjectAltNames wanted = SubjectAltNames.forServing(servingHosts);
        SecureRandom random = new SecureRandom();
        CertificateIssuer issuer = new CertificateIssuer(new BouncyCastleProvider(), random, clock);

        // 1. The directories.
        // Owner-only (0700), as kube's PKI directories: they hold keys, tokens and every object.
        Path pki = root.resolve("pki");
        for (Path d : List.of(root, pki)) {
            if (SecureFiles.createPrivateDirectory(d)) {
                LOG.warn("{} was open to other users; made it owner-only (0700)", d);
            }
        }

        // 2. The CA.
        Path caCrt = pki.resolve("ca.crt");
        Path caKeyFile = pki.resolve("ca.key");
        CertifiedKey caPair = loadOrCreateCa(caCrt, caKeyFile, issuer, clock);

        // 3. The serving certificate.
        CertifiedKey servingPair = loadOrIssueServing(pki.resolve("apiserver.crt"), pki.resolve("apiserver.key"),
                wanted, caPair, issuer, clock);

        // 4. The admin token.
        String token = loadOrCreateAdminToken(root.resolve("tokens.csv"), random);

        // 5. The admin client certificate (O=system:masters), as kubeadm's admin.conf carries one.
        loadOrIssueAdminCertificate(pki.resolve("admin.crt"), pki.resolve("admin.key"), caPair, issuer, clock);

        char[] password = AdminTokenFile.newToken(random).toCharArray();
        return new DataDirectory(root, caPair.certificate(), servingPair.certificate(), servingPair.key(),
                token, password);
    }

    /** The data directory, absolute. */
    public Path directory() {
        return dir;
    }

    /**
     * A new in-memory PKCS12 key store holding the serving key under the alias
     * {@code kubelix-apiserver} with the chain [serving certificate, CA], protected by
     * {@link #keyStorePassword()} (store and key alike), for Jetty's
     * {@code SslContextFactory.Server.setKeyStore}.
     */
    public KeyStore servingKeyStore() {
        try {
            return ServingKeys.inMemoryStore(KEY_ALIAS, servingKey, keyStorePassword, new Certificate[]{serving, ca});
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the serving key store", e);
        }
    }

    /** The serving key and certificate this directory issued, for HTTPS. */
    public ServingKeys servingKeys() {
        return new ServingKeys(servingKeyStore(), keyStorePassword(), dir.resolve("pki").resolve("apiserver.crt")
                + " (issued by this data directory's CA)");
    }

    /** The password of {@link #servingKeyStore()}, random for this process; a copy. */
    public char[] keyStorePassword() {
        return keyStorePassword.clone();
    }

    /** {@code pki/ca.crt}: what clients trust (kubectl's certificate-authority). */
    public Path caCertificate() {
        return caCertificate;
    }

    /** {@code tokens.csv}, in kube-apiserver's {@code --token-auth-file} format. */
    public Path tokenFile() {
        return tokenFile;
    }

    /** The admin token, as read from the admin line of {@code tokens.csv} by {@link #prepare}. */
    public String adminToken() {
        return adminToken;
    }

    /**
     * Writes {@code admin.kubeconfig} (owner-only) for the admin user against {@code serverUrl},
     * such as {@code https://127.0.0.1:6443}; an identical file is left untouched.
     *
     * @return the kubeconfig's path
     */
    public Path writeKubeconfig(String serverUrl) throws IOException {
        if (serverUrl == null || serverUrl.isBlank()) {
            throw new IllegalArgumentException("serverUrl is empty");
        }
        byte[] ca = Files.readAllBytes(caCertificate);
        Path pki = dir.resolve("pki");
        write(dir.resolve("admin-x509.kubeconfig"), Kubeconfig.render(serverUrl, ca, AdminTokenFile.ADMIN_USER,
                Map.of("client-certificate-data", base64(pki.resolve("admin.crt")),
                        "client-key-data", base64(pki.resolve("admin.key")))), serverUrl, "client certificate");
        return write(dir.resolve("admin.kubeconfig"), Kubeconfig.render(serverUrl, ca, AdminTokenFile.ADMIN_USER,
                Map.of("token", adminToken)), serverUrl, "token");
    }

    private static String base64(Path file) throws IOException {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
    }

    private static Path write(Path kubeconfig, byte[] content, String serverUrl, String credential) throws IOException {
        if (Files.isRegularFile(kubeconfig) && Arrays.equals(content, Files.readAllBytes(kubeconfig))) {
            SecureFiles.restrictToOwner(kubeconfig);
            LOG.info("Reusing {} (server {}, user {} by {})", kubeconfig, serverUrl, AdminTokenFile.ADMIN_USER,
                    credential);
        } else {
            SecureFiles.writePrivate(kubeconfig, content);
            LOG.info("Wrote {} (server {}, user {} by {}): use it with kubectl --kubeconfig", kubeconfig, serverUrl,
                    AdminTokenFile.ADMIN_USER, credential);
        }
        return kubeconfig;
    }

    private static CertifiedKey loadOrCreateCa(Path crt, Path key, CertificateIssuer issuer, Clock clock)
            throws IOException {
        boolean hasCrt = Files.exists(crt);
        boolean hasKey = Files.exists(key);
        if (hasCrt != hasKey) {
            Path present = hasCrt ? crt : key;
            Path absent = hasCrt ? key : crt;
            throw new IllegalStateException("found " + present + " but not " + absent + "; restore " + absent
                    + ", or delete " + present + " to create a new CA (clients must then trust the new ca.crt)");
        }
        if (!hasCrt) {
            KeyPair keys = issuer.newKeyPair();
            X509Certificate certificate = issuer.selfSignedCa(keys, CA_NAME, CA_VALIDITY);
            SecureFiles.writePrivate(key, PemFiles.encode(keys.getPrivate()).getBytes(StandardCharsets.US_ASCII));
            SecureFiles.writePublic(crt, PemFiles.encode(certificate).getBytes(StandardCharsets.US_ASCII));
            LOG.info("Created CA {} ({}, {} key, valid until {})", crt, CA_NAME, describe(keys.getPrivate()),
                    certificate.getNotAfter().toInstant());
            return new CertifiedKey(certificate, keys.getPrivate());
        }
        X509Certificate certificate = PemFiles.readCertificate(crt);
        PrivateKey caKey = PemFiles.readPrivateKey(key);
        if (certificate.getBasicConstraints() < 0) {
            throw PemFiles.corrupt(crt, "is not a CA certificate (no basicConstraints CA:TRUE)", null);
        }
        if (!issuer.matches(caKey, certificate)) {
            throw new IllegalStateException(key + " is not the key of " + crt + "; restore the matching pair, "
                    + "or delete both to create a new CA (clients must then trust the new ca.crt)");
        }
        tightenPermissions(key);
        Instant notAfter = certificate.getNotAfter().toInstant();
        if (notAfter.isBefore(clock.instant().plus(RENEW_BEFORE))) {
            LOG.warn("Reusing CA {}, but it expires on {}: delete pki/ca.crt and pki/ca.key to create a new CA, "
                    + "then give clients the new ca.crt", crt, notAfter);
        } else {
            LOG.info("Reusing CA {} ({}, valid until {})", crt, certificate.getSubjectX500Principal().getName(),
                    notAfter);
        }
        return new CertifiedKey(certificate, caKey);
    }

    private static void loadOrIssueAdminCertificate(Path crt, Path key, CertifiedKey ca, CertificateIssuer issuer,
                                                    Clock clock) throws IOException {
        if (Files.exists(crt) && Files.exists(key)) {
            X509Certificate certificate = PemFiles.readCertificate(crt);
            String reason = null;
            try {
                certificate.verify(ca.certificate().getPublicKey());
            } catch (GeneralSecurityException e) {
                reason = "it is not signed by the current CA";
            }
            if (reason == null && !issuer.matches(PemFiles.readPrivateKey(key), certificate)) {
                reason = "the key file does not match it";
            }
            if (reason == null && certificate.getNotAfter().toInstant().isBefore(clock.instant().plus(RENEW_BEFORE))) {
                reason = "it expires on " + certificate.getNotAfter().toInstant();
            }
            if (reason == null) {
                tightenPermissions(key);
                return;
            }
            LOG.info("Re-issuing the admin client certificate {} because {}", crt, reason);
        }
        KeyPair keys = issuer.newKeyPair();
        X509Certificate certificate = issuer.clientCertificate(keys.getPublic(), AdminTokenFile.ADMIN_USER,
                List.of(AdminTokenFile.ADMIN_GROUP), ca.certificate(), ca.key(), SERVING_VALIDITY);
        SecureFiles.writePrivate(key, PemFiles.encode(keys.getPrivate()).getBytes(StandardCharsets.US_ASCII));
        SecureFiles.writePublic(crt, PemFiles.encode(certificate).getBytes(StandardCharsets.US_ASCII));
        LOG.info("Created the admin client certificate {} (CN={}, O={}, valid until {})", crt,
                AdminTokenFile.ADMIN_USER, AdminTokenFile.ADMIN_GROUP, certificate.getNotAfter().toInstant());
    }

    private static CertifiedKey loadOrIssueServing(Path crt, Path key, SubjectAltNames wanted, CertifiedKey ca,
                                                   CertificateIssuer issuer, Clock clock) throws IOException {
        String reason;
        if (Files.exists(crt) && Files.exists(key)) {
            X509Certificate certificate = PemFiles.readCertificate(crt);
            PrivateKey servingKey = PemFiles.readPrivateKey(key);
            reason = reissueReason(certificate, servingKey, wanted, ca.certificate(), issuer, clock, crt);
            if (reason == null) {
                tightenPermissions(key);
                LOG.info("Reusing serving certificate {} for {} (valid until {})", crt,
                        subjectAltNames(certificate, crt), certificate.getNotAfter().toInstant());
                return new CertifiedKey(certificate, servingKey);
            }
        } else {
            reason = Files.exists(crt) ? key + " is missing" : Files.exists(key) ? crt + " is missing" : null;
        }
        KeyPair keys = issuer.newKeyPair();
        X509Certificate certificate = issuer.servingCertificate(keys.getPublic(), SERVING_NAME, wanted,
                ca.certificate(), ca.key(), SERVING_VALIDITY);
        SecureFiles.writePrivate(key, PemFiles.encode(keys.getPrivate()).getBytes(StandardCharsets.US_ASCII));
        SecureFiles.writePublic(crt, PemFiles.encode(certificate).getBytes(StandardCharsets.US_ASCII));
        if (reason == null) {
            LOG.info("Created serving certificate {} for {} (valid until {})", crt, wanted,
                    certificate.getNotAfter().toInstant());
        } else {
            LOG.info("Re-issued serving certificate {} for {} (valid until {}) because {}", crt, wanted,
                    certificate.getNotAfter().toInstant(), reason);
        }
        return new CertifiedKey(certificate, keys.getPrivate());
    }

    /** Why an existing serving certificate cannot be kept, or null when it can. */
    private static String reissueReason(X509Certificate certificate, PrivateKey key, SubjectAltNames wanted,
                                        X509Certificate ca, CertificateIssuer issuer, Clock clock, Path crt) {
        try {
            certificate.verify(ca.getPublicKey());
        } catch (GeneralSecurityException e) {
            return "it is not signed by the current CA";
        }
        if (!issuer.matches(key, certificate)) {
            return "the key file does not match it";
        }
        Instant notAfter = certificate.getNotAfter().toInstant();
        if (notAfter.isBefore(clock.instant().plus(RENEW_BEFORE))) {
            return "it expires on " + notAfter + ", within " + RENEW_BEFORE.toDays() + " days";
        }
        Set<String> missing = subjectAltNames(certificate, crt).missing(wanted);
        return missing.isEmpty() ? null : "it lacks the requested names " + missing;
    }

    private static SubjectAltNames subjectAltNames(X509Certificate certificate, Path crt) {
        try {
            return SubjectAltNames.of(certificate);
        } catch (CertificateParsingException e) {
            throw PemFiles.corrupt(crt, "has unreadable subject alternative names", e);
        }
    }

    private static String loadOrCreateAdminToken(Path file, SecureRandom random) throws IOException {
        if (!Files.exists(file)) {
            String token = AdminTokenFile.newToken(random);
            SecureFiles.writePrivate(file, AdminTokenFile.adminLine(token).getBytes(StandardCharsets.UTF_8));
            LOG.info("Created {} with a token for user {} in group {}", file, AdminTokenFile.ADMIN_USER,
                    AdminTokenFile.ADMIN_GROUP);
            return token;
        }
        String token = AdminTokenFile.readAdminToken(file);
        tightenPermissions(file);
        LOG.info("Reusing the token of user {} from {}", AdminTokenFile.ADMIN_USER, file);
        return token;
    }

    private static void tightenPermissions(Path secret) throws IOException {
        if (SecureFiles.restrictToOwner(secret)) {
            LOG.warn("{} was readable by other users; made it owner-only (0600)", secret);
        }
    }

    private static String describe(PrivateKey key) {
        return "EC".equals(key.getAlgorithm()) ? "EC P-256" : key.getAlgorithm();
    }

    /** A certificate and its private key: one .crt/.key pair of pki/. */
    private record CertifiedKey(X509Certificate certificate, PrivateKey key) {
    }
}
