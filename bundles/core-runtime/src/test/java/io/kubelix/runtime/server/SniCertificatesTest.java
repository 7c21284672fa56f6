package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.DataDirectory;
import io.kubelix.runtime.bootstrap.SniCertKey;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --tls-sni-cert-key: each handshake is served the certificate its SNI name selects, as kube-apiserver does. */
class SniCertificatesTest {
    @TempDir
    Path temp;
    private Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** "auto" is Conscrypt where its native library loads, which calls our key manager as the JDK does. */
    @ParameterizedTest
    @ValueSource(strings = {"jdk", "auto"})
    void theMostSpecificNameSelectsTheCertificateAndTheDefaultServesTheRest(String tlsProvider) throws Exception {
        Path fallback = pki("default", List.of());
        Path own = pki("own", List.of("b.example.com", "shared.example.com"));
        Path wildcard = pki("wildcard", List.of());
        SniCertKey ownNames = SniCertKey.parse(own.resolve("apiserver.crt") + "," + own.resolve("apiserver.key"));
        SniCertKey explicit = SniCertKey.parse(wildcard.resolve("apiserver.crt") + "," + wildcard.resolve("apiserver.key")
                + ":*.wild.example.com, Shared.example.com");
        int port = serve(ServingCertificates.load(null, DataDirectory.prepare(temp.resolve("default"), List.of())
                .servingKeys(), List.of(ownNames, explicit)), TlsProvider.choose(tlsProvider));

        assertEquals(certificate(fallback), peer(port, null), "no SNI");
        assertEquals(certificate(fallback), peer(port, "unknown.example.org"), "a name no certificate has");
        assertEquals(certificate(own), peer(port, "b.example.com"), "a DNS name of the certificate");
        assertEquals(certificate(own), peer(port, "B.Example.COM"), "names are case-insensitive");
        assertEquals(certificate(wildcard), peer(port, "x.wild.example.com"), "a wildcard given in the flag");
        assertEquals(certificate(fallback), peer(port, "wild.example.com"), "a wildcard does not name its parent");
        assertEquals(certificate(wildcard), peer(port, "shared.example.com"),
                "a name given in a flag wins over a certificate's own, even an earlier flag's");
    }

    @Test
    void flagValuesAreParsedAsKubeParsesThem() {
        SniCertKey named = SniCertKey.parse(" a.crt , a.key : x.example.com , *.y.example.com ");
        assertEquals(List.of("x.example.com", "*.y.example.com"), named.names());
        assertEquals(Path.of("a.crt").toAbsolutePath(), named.files().certFile());
        assertEquals(Path.of("a.key").toAbsolutePath(), named.files().keyFile());
        assertEquals(List.of(), SniCertKey.parse("a.crt,a.key").names());

        assertEquals("invalid argument \"a.crt\" for \"--tls-sni-cert-key\" flag: "
                + "expected comma separated certificate and key file paths",
                assertThrows(IllegalArgumentException.class, () -> SniCertKey.parse("a.crt")).getMessage());
        assertEquals("invalid argument \"a.crt,a.key:\" for \"--tls-sni-cert-key\" flag: empty names list is not allowed",
                assertThrows(IllegalArgumentException.class, () -> SniCertKey.parse("a.crt,a.key:")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SniCertKey.parse(temp.resolve("missing.crt") + ","
                + temp.resolve("missing.key")).load()).getMessage().startsWith("--tls-sni-cert-key "));
    }

    private Path pki(String name, List<String> hosts) throws Exception {
        return DataDirectory.prepare(temp.resolve(name), hosts).directory().resolve("pki");
    }

    private int serve(ServingCertificates certificates, TlsProvider.Choice provider) throws Exception {
        server = new Server();
        ServerConnector connector = GenericAPIServer.httpsConnector(server, certificates, provider,
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
        return connector.getLocalPort();
    }

    private static X509Certificate certificate(Path pki) throws Exception {
        return (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(Files.newInputStream(pki.resolve("apiserver.crt")));
    }

    /** The certificate a new TLS connection asking for {@code sni} (none when null) is served. */
    private static X509Certificate peer(int port, String sni) throws Exception {
        SSLContext trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a) { }
            public void checkServerTrusted(X509Certificate[] c, String a) { }
            public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, null);
        try (SSLSocket socket = (SSLSocket) trustAll.getSocketFactory().createSocket("127.0.0.1", port)) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(sni == null ? List.of() : List.of(new SNIHostName(sni)));
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
