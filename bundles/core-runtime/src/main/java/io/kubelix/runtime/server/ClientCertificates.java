package io.kubelix.runtime.server;

import javax.net.ssl.X509TrustManager;
import java.security.cert.X509Certificate;

/**
 * The TLS handshake's view of client certificates: any is taken, none is required, and no CA is
 * named to the client; the authenticators (such as authn-x509's {@code --client-ca-file}) verify
 * the chain afterwards, as kube-apiserver does.
 */
final class ClientCertificates {
    static final X509TrustManager VERIFIED_LATER = new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // Verified by the authenticators.
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("the API server does not connect to servers with this context");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private ClientCertificates() {
    }
}
