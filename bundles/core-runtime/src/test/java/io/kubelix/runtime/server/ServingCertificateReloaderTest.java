package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.CertKeyFiles;
import io.kubelix.runtime.bootstrap.DataDirectory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --tls-cert-file and --tls-private-key-file: served, checked, and served anew when they change. */
class ServingCertificateReloaderTest {
    @TempDir
    Path temp;
    private Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefusedNamingTheFiles() throws Exception {
        Path a = DataDirectory.prepare(temp.resolve("a"), List.of()).directory().resolve("pki");
        Path b = DataDirectory.prepare(temp.resolve("b"), List.of()).directory().resolve("pki");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CertKeyFiles(a.resolve("apiserver.crt"), b.resolve("apiserver.key")).load());
        assertTrue(e.getMessage().contains("is not the key of --tls-cert-file"), e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CertKeyFiles(a.resolve("missing.crt"),
                a.resolve("apiserver.key")).load()).getMessage().contains("does not exist"));
    }

    @Test
    void aRenewedCertificateIsServedToNewConnectionsWithoutARestart() throws Exception {
        Path first = DataDirectory.prepare(temp.resolve("first"), List.of()).directory().resolve("pki");
        Path second = DataDirectory.prepare(temp.resolve("second"), List.of()).directory().resolve("pki");
        Path served = Files.createDirectories(temp.resolve("served"));
        Files.copy(first.resolve("apiserver.crt"), served.resolve("tls.crt"));
        Files.copy(first.resolve("apiserver.key"), served.resolve("tls.key"));
        CertKeyFiles files = new CertKeyFiles(served.resolve("tls.crt"), served.resolve("tls.key"));
        TlsProvider.Choice jdk = TlsProvider.choose("jdk");

        server = new Server();
        ServerConnector connector = GenericAPIServer.httpsConnector(server, new ServingCertificates(files.load(), List.of()), jdk,
                TlsOptions.parse("VersionTLS12", ""), 250);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                callback.succeeded();
                return true;
            }
        });
        server.start();
        SslContextFactory.Server tls = (SslContextFactory.Server) connector
                .getConnectionFactory(SslConnectionFactory.class).getSslContextFactory();
        X509Certificate before = peer(connector.getLocalPort());
        assertEquals(certificate(first), before);

        try (ServingCertificateReloader reloader = new ServingCertificateReloader(files, null, List.of(), tls, jdk,
                Duration.ofHours(1))) {
            // A half-written pair (the new certificate, the old key) is not served.
            Files.copy(second.resolve("apiserver.crt"), served.resolve("tls.crt"), StandardCopyOption.REPLACE_EXISTING);
            Files.setLastModifiedTime(served.resolve("tls.crt"), FileTime.from(Instant.now().plusSeconds(5)));
            reloader.check();
            assertEquals(before, peer(connector.getLocalPort()));

            Files.copy(second.resolve("apiserver.key"), served.resolve("tls.key"), StandardCopyOption.REPLACE_EXISTING);
            Files.setLastModifiedTime(served.resolve("tls.key"), FileTime.from(Instant.now().plusSeconds(10)));
            reloader.check();
            X509Certificate after = peer(connector.getLocalPort());
            assertNotEquals(before, after);
            assertEquals(certificate(second), after);
        }
    }

    private static X509Certificate certificate(Path pki) throws Exception {
        return (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(Files.newInputStream(pki.resolve("apiserver.crt")));
    }

    /** The certificate a new TLS connection is served. */
    private static X509Certificate peer(int port) throws Exception {
        SSLContext trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a) { }
            public void checkServerTrusted(X509Certificate[] c, String a) { }
            public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, null);
        try (SSLSocket socket = (SSLSocket) trustAll.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
