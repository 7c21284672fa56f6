package io.kubelix.aggregator;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * A loopback TLS server socket standing in for an extension API server, its certificate self-signed
 * for {@link #SERVER_NAME}, and the {@code caBundle} an APIService trusts it with.
 */
record TlsBackend(SSLServerSocket socket, String caBundle) {
    static final String SERVER_NAME = "api.ns.svc";

    static TlsBackend start() throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance("EC").generateKeyPair();
        X500Name name = new X500Name("CN=" + SERVER_NAME);
        Instant now = Instant.now();
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name,
                BigInteger.ONE, Date.from(now.minusSeconds(60)), Date.from(now.plusSeconds(3600)), name, keys.getPublic())
                .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName(GeneralName.dNSName, SERVER_NAME)))
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("backend", keys.getPrivate(), new char[0], new X509Certificate[] {cert});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, new char[0]);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        SSLServerSocket socket = (SSLServerSocket) tls.getServerSocketFactory().createServerSocket(0, 1,
                InetAddress.getLoopbackAddress());
        StringWriter pem = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(pem)) {
            writer.writeObject(cert);
        }
        return new TlsBackend(socket, Base64.getEncoder().encodeToString(pem.toString().getBytes(StandardCharsets.US_ASCII)));
    }

    /** The TLS settings of an APIService that trusts this server. */
    ProxyTransports.Key key() {
        return new ProxyTransports.Key(caBundle, false, SERVER_NAME);
    }

    int port() {
        return socket.getLocalPort();
    }
}
