package io.kubelix.support.webhook;

import io.kubelix.support.net.IP;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * TLS to a webhook as kube-apiserver's webhook clients do it: the server's chain must lead to a
 * CA of the configuration's PEM bundle ({@code caBundle}, {@code certificate-authority-data}), or
 * to the JDK's trusted CAs when there is none, and its certificate must name the host kube checks
 * (its subject alternative names; a DNS name may have a leading {@code *.} wildcard). That host is
 * the URL's for a webhook reached by URL, and {@code <service>.<namespace>.svc} for one reached
 * through a service, whichever endpoint address the connection goes to.
 */
public final class CABundleTrust {
    private CABundleTrust() {
    }

    /**
     * A TLS context trusting {@code caPem} (null or empty: the JDK's CAs) for a server that must
     * be {@code serverName}.
     *
     * @throws GeneralSecurityException when the bundle holds no certificate or cannot be read
     */
    public static SSLContext sslContext(byte[] caPem, String serverName) throws GeneralSecurityException {
        return sslContext(caPem, serverName, null);
    }

    /**
     * As {@link #sslContext(byte[], String)}, presenting the client certificate of {@code keyManagers}
     * (null: none) when the server asks for one, as the aggregator's proxy does.
     */
    public static SSLContext sslContext(byte[] caPem, String serverName, KeyManager[] keyManagers)
            throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(caPem == null || caPem.length == 0 ? null : keyStore(caPem));
        X509TrustManager chain = null;
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                chain = x;
            }
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers, new TrustManager[] {new NamedServerTrust(chain, serverName)}, null);
        return context;
    }

    /**
     * TLS that believes any server (kube's {@code insecureSkipTLSVerify}, and the availability
     * check's best-effort discovery GET), presenting the client certificate of {@code keyManagers}
     * (null: none).
     */
    public static SSLContext insecureSslContext(KeyManager[] keyManagers) throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers, new TrustManager[] {new NamedServerTrust(null, null)}, null);
        return context;
    }

    private static KeyStore keyStore(byte[] caPem) throws GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            trust.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        int i = 0;
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(caPem))) {
            trust.setCertificateEntry("ca-" + i++, c);
        }
        if (i == 0) {
            throw new GeneralSecurityException("the CA bundle holds no PEM certificate");
        }
        return trust;
    }

    /** Whether {@code cert} names {@code host}: an IP address among its IP SANs, a name among its DNS SANs. */
    static boolean names(X509Certificate cert, String host) throws CertificateParsingException {
        Collection<List<?>> sans = cert.getSubjectAlternativeNames();
        if (sans == null) {
            return false;
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        // crypto/x509's VerifyHostname: a host that net.ParseIP reads is matched against the IP SANs only
        IP ip = IP.parseIP(h);
        for (List<?> san : sans) {
            int type = (Integer) san.get(0);
            String value = String.valueOf(san.get(1));
            if (ip != null && type == 7 && ip.equals(IP.parseIP(value))) {
                return true;
            }
            if (ip == null && type == 2 && dnsMatches(value.toLowerCase(Locale.ROOT), h.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static boolean dnsMatches(String pattern, String host) {
        String p = pattern.endsWith(".") ? pattern.substring(0, pattern.length() - 1) : pattern;
        String n = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (p.startsWith("*.")) {
            int dot = n.indexOf('.');
            return dot > 0 && n.substring(dot + 1).equals(p.substring(2));
        }
        return p.equals(n);
    }

    /** Checks the chain with the CA bundle's trust manager and the leaf against the expected name; without a trust manager, nothing. */
    private static final class NamedServerTrust extends X509ExtendedTrustManager {
        private final X509TrustManager chain;
        private final String serverName;

        NamedServerTrust(X509TrustManager chain, String serverName) {
            this.chain = chain;
            this.serverName = serverName;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType) throws CertificateException {
            if (chain == null) {
                return;
            }
            chain.checkServerTrusted(certs, authType);
            if (!names(certs[0], serverName)) {
                throw new CertificateException("x509: certificate is not valid for " + serverName);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket) throws CertificateException {
            checkServerTrusted(certs, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine) throws CertificateException {
            checkServerTrusted(certs, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType) throws CertificateException {
            throw new CertificateException("a webhook client does not authenticate clients");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, Socket socket) throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine engine) throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return chain == null ? new X509Certificate[0] : chain.getAcceptedIssuers();
        }
    }
}
