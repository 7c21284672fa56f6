package io.kubelix.itest.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import javax.net.ssl.SSLSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube-apiserver's {@code --tls-cert-file} and {@code --tls-private-key-file}: the server serves the
 * operator's certificate instead of the one it issues itself, kubectl works through it, and a renewed
 * pair written over the files is served to new connections without a restart; a
 * {@code --tls-sni-cert-key} certificate is served to clients asking for its name. The certificate
 * the data directory issues beside them names {@code --advertise-address} and the first IP of the
 * {@code service-cluster-ip-range} that {@code etc/io.kubelix.services.cfg} sets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsCertFileIT {
    private static final String SERVICE_RANGE = "10.55.0.0/24";
    private static final String ADVERTISE_ADDRESS = "192.0.2.10";
    private Path work;
    private TestPki pki;
    private KubelixServer server;

    @BeforeAll
    void start() throws Exception {
        work = KubelixServer.workDirectory("tls-cert-file");
        // The data directory's CA made beforehand (the server keeps a CA it finds), so the operator's
        // certificate is one kubectl's admin.kubeconfig already trusts.
        pki = new TestPki(work.resolve("data").resolve("pki")).ca("operator-ca");
        pki.server("operator-serving");
        Path served = Files.createDirectories(work.resolve("served"));
        Files.copy(pki.dir().resolve("operator-serving.crt"), served.resolve("tls.crt"));
        Files.copy(pki.dir().resolve("operator-serving.key"), served.resolve("tls.key"));
        pki.server("sni-serving", "DNS:sni.example.com");
        Path distribution = work.resolve("distribution");
        KubelixServer.copyTree(Path.of(System.getProperty("kubelix.itest.distribution")), distribution);
        Files.writeString(distribution.resolve("etc").resolve("io.kubelix.services.cfg"),
                "service-cluster-ip-range=" + SERVICE_RANGE + "\n");
        server = KubelixServer.start(distribution, work, KubectlSuite.READY_TIMEOUT,
                "--advertise-address", ADVERTISE_ADDRESS, "--tls-cert-file", served.resolve("tls.crt").toString(),
                "--tls-private-key-file", served.resolve("tls.key").toString(), "--tls-sni-cert-key",
                pki.dir().resolve("sni-serving.crt") + "," + pki.dir().resolve("sni-serving.key"));
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theOperatorsCertificateIsServedAndARenewalTakesOverWithoutARestart() throws Exception {
        assertEquals(serial("operator-serving"), served().getSerialNumber());
        server.kubectl(work).ok("get", "namespaces");

        pki.server("renewed-serving");
        Path served = work.resolve("served");
        // The key first, then the certificate, as a renewal tool writes them: the half-written pair is not served.
        Files.copy(pki.dir().resolve("renewed-serving.key"), served.resolve("tls.key"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.copy(pki.dir().resolve("renewed-serving.crt"), served.resolve("tls.crt"),
                StandardCopyOption.REPLACE_EXISTING);
        server.await("the renewed certificate is served", Duration.ofSeconds(30), this::served,
                c -> c.getSerialNumber().equals(serialOrNull("renewed-serving")));
        server.kubectl(work).ok("get", "namespaces");
        assertTrue(server.log().contains("the files changed"), "the reload is logged");
    }

    /** kubectl verifies the name it asks for, which only the SNI certificate has. */
    @Test
    void aClientAskingForAnSniNameIsServedThatCertificate() throws Exception {
        server.kubectl(work).ok("--tls-server-name=sni.example.com", "get", "namespaces");
    }

    @Test
    void theIssuedCertificateNamesTheAdvertiseAddressAndTheServiceIpOfTheEtcConfiguration() throws Exception {
        X509Certificate issued;
        try (var in = Files.newInputStream(server.dataDir().resolve("pki").resolve("apiserver.crt"))) {
            issued = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in);
        }
        java.util.List<String> names = issued.getSubjectAlternativeNames().stream()
                .map(name -> name.get(1).toString()).toList();
        assertTrue(names.contains(ADVERTISE_ADDRESS), "the advertise address is named: " + names);
        assertTrue(names.contains("10.55.0.1"), "the kubernetes service's IP in the etc/ range is named: " + names);
        assertEquals("10.55.0.1", server.kubectl(work).ok("get", "service", "kubernetes", "-o",
                "jsonpath={.spec.clusterIP}").stdout().trim());
    }

    private java.math.BigInteger serial(String file) throws Exception {
        try (var in = Files.newInputStream(pki.dir().resolve(file + ".crt"))) {
            return ((X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in)).getSerialNumber();
        }
    }

    private java.math.BigInteger serialOrNull(String file) {
        try {
            return serial(file);
        } catch (Exception e) {
            return null;
        }
    }

    /** The certificate a new connection is served, verified against the data directory's CA. */
    private X509Certificate served() throws Exception {
        try (SSLSocket socket = (SSLSocket) KubelixServer.trusting(server.dataDir().resolve("pki").resolve("ca.crt"))
                .getSocketFactory().createSocket("127.0.0.1", server.port())) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
