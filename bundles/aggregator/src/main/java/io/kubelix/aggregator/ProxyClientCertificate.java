package io.kubelix.aggregator;

import io.kubelix.support.flags.ReloadingFile;
import io.kubelix.support.webhook.x509.ClientCertificate;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

/**
 * The client certificate the aggregator presents to extension API servers
 * ({@code --proxy-client-cert-file}, {@code --proxy-client-key-file}), so they believe the user
 * it names in {@code X-Remote-*} headers. Both files are reloaded when they change, as kube's
 * DynamicCertKeyPairContent: each new TLS connection presents the current pair. Without the
 * flags no certificate is presented.
 */
final class ProxyClientCertificate {
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final String ALIAS = "proxy-client";

    private final ReloadingFile<List<X509Certificate>> certificates;
    private final ReloadingFile<PrivateKey> key;

    /** The pair of these files; either null means no client certificate. */
    ProxyClientCertificate(String certFile, String keyFile) {
        if (certFile == null || certFile.isBlank() || keyFile == null || keyFile.isBlank()) {
            this.certificates = null;
            this.key = null;
            return;
        }
        this.certificates = new ReloadingFile<>("Proxy client certificate file", Path.of(certFile), CHECK_INTERVAL,
                System::nanoTime, List.of(), ProxyClientCertificate::parseCertificates, c -> c.size() + " certificate(s)");
        this.key = new ReloadingFile<>("Proxy client key file", Path.of(keyFile), CHECK_INTERVAL, System::nanoTime,
                null, ProxyClientCertificate::parseKey, k -> k == null ? "no key" : k.getAlgorithm() + " key");
    }

    /** The key managers to hand to an SSLContext, or null when there is no client certificate. */
    KeyManager[] keyManagers() {
        return certificates == null ? null : new KeyManager[] {new CurrentPair()};
    }

    static List<X509Certificate> parseCertificates(String pem) {
        try {
            return ClientCertificate.certificates(pem.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** A PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC 1 ({@code EC PRIVATE KEY}) key. */
    static PrivateKey parseKey(String pem) {
        try {
            return ClientCertificate.privateKey(pem.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Presents the files' current pair whenever a server asks for a client certificate. */
    private final class CurrentPair extends X509ExtendedKeyManager {
        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {ALIAS};
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return present() ? ALIAS : null;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return present() ? ALIAS : null;
        }

        private boolean present() {
            return !certificates.current().isEmpty() && key.current() != null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return certificates.current().toArray(X509Certificate[]::new);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return key.current();
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }
    }
}
