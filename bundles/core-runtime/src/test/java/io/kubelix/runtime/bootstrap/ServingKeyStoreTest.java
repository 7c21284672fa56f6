package io.kubelix.runtime.bootstrap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The serving key store works for a TLS server that a client trusting only ca.crt accepts, host name checked. */
class ServingKeyStoreTest {

    @TempDir
    Path temp;

    @Test
    void keyStoreHoldsTheKeyAndTheChain() throws Exception {
        DataDirectory data = DataDirectory.prepare(temp, List.of());
        KeyStore store = data.servingKeyStore();

        assertEquals("PKCS12", store.getType());
        assertEquals(1, store.size());
        String alias = store.aliases().nextElement();
        assertNotNull(store.getKey(alias, data.keyStorePassword()));
        Certificate[] chain = store.getCertificateChain(alias);
        assertEquals(2, chain.length);
        assertEquals(PemFiles.readCertificate(temp.resolve("pki/apiserver.crt")), chain[0]);
        assertEquals(PemFiles.readCertificate(data.caCertificate()), chain[1]);
    }

    @Test
    void clientTrustingOnlyTheCaCompletesTheHandshake() throws Exception {
        DataDirectory data = DataDirectory.prepare(temp, List.of());
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(data.servingKeyStore(), data.keyStorePassword());
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(keys.getKeyManagers(), null, null);

        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, trustOnly(data.caCertificate()).getTrustManagers(), null);

        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 2, InetAddress.getByName("127.0.0.1"))) {
            // Once by IP (an IP SAN), once by name (a DNS SAN), both with HTTPS host name checks.
            for (String host : List.of("127.0.0.1", "localhost")) {
                Future<Integer> served = executor.submit(() -> {
                    try (Socket accepted = listener.accept(); OutputStream out = accepted.getOutputStream()) {
                        out.write(42);
                        out.flush();
                        return accepted.getInputStream().read();
                    }
                });
                try (Socket plain = new Socket()) {
                    plain.connect(new InetSocketAddress("127.0.0.1", listener.getLocalPort()), 5000);
                    plain.setSoTimeout(5000);
                    try (SSLSocket tls = (SSLSocket) client.getSocketFactory()
                            .createSocket(plain, host, listener.getLocalPort(), true)) {
                        SSLParameters parameters = tls.getSSLParameters();
                        parameters.setEndpointIdentificationAlgorithm("HTTPS");
                        tls.setSSLParameters(parameters);
                        tls.startHandshake();
                        InputStream in = tls.getInputStream();
                        assertEquals(42, in.read(), host);
                        tls.getOutputStream().write(7);
                        tls.getOutputStream().flush();
                    }
                }
                assertEquals(7, served.get(10, TimeUnit.SECONDS), host);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private static TrustManagerFactory trustOnly(Path caCertificate) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caCertificate)) {
            X509Certificate ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            trust.setCertificateEntry("kubelix-ca", ca);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        return factory;
    }
}
