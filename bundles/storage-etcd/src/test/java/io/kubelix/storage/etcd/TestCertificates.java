package io.kubelix.storage.etcd;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/** A CA, an etcd server certificate for 127.0.0.1 and a client certificate, made with BouncyCastle for a test. */
final class TestCertificates {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    final Path ca;
    final Path serverCert;
    final Path serverKey;
    final Path clientCert;
    final Path clientKey;
    /** A client certificate from another CA, which etcd must refuse. */
    final Path strangerCert;
    final Path strangerKey;

    TestCertificates(Path dir) throws Exception {
        KeyPair caKeys = rsa();
        X509CertificateHolder caCert = sign(new X500Name("CN=kubelix-test-ca"), caKeys, new X500Name("CN=kubelix-test-ca"),
                caKeys.getPublic(), true, null, null);
        ca = writePem(dir.resolve("ca.crt"), caCert);

        KeyPair server = rsa();
        serverCert = writePem(dir.resolve("server.crt"), sign(new X500Name("CN=kubelix-test-ca"), caKeys,
                new X500Name("CN=etcd"), server.getPublic(), false, KeyPurposeId.id_kp_serverAuth,
                new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")})));
        serverKey = writeKey(dir.resolve("server.key"), server);

        KeyPair client = rsa();
        clientCert = writePem(dir.resolve("client.crt"), sign(new X500Name("CN=kubelix-test-ca"), caKeys,
                new X500Name("CN=kubelix"), client.getPublic(), false, KeyPurposeId.id_kp_clientAuth, null));
        clientKey = writeKey(dir.resolve("client.key"), client);

        KeyPair otherCa = rsa();
        KeyPair stranger = rsa();
        strangerCert = writePem(dir.resolve("stranger.crt"), sign(new X500Name("CN=other-ca"), otherCa,
                new X500Name("CN=stranger"), stranger.getPublic(), false, KeyPurposeId.id_kp_clientAuth, null));
        strangerKey = writeKey(dir.resolve("stranger.key"), stranger);
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static X509CertificateHolder sign(X500Name issuer, KeyPair issuerKeys, X500Name subject,
                                              java.security.PublicKey subjectKey, boolean isCa,
                                              KeyPurposeId purpose, GeneralNames sans) throws Exception {
        Instant now = Instant.now();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, subjectKey);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
        if (isCa) {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
        }
        if (sans != null) {
            b.addExtension(Extension.subjectAlternativeName, false, sans);
        }
        ContentSigner signer = new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate());
        return b.build(signer);
    }

    private static Path writePem(Path file, Object obj) throws IOException {
        try (Writer w = Files.newBufferedWriter(file); JcaPEMWriter pem = new JcaPEMWriter(w)) {
            pem.writeObject(obj);
        }
        return file;
    }

    /** The private key as PKCS#8 PEM ("BEGIN PRIVATE KEY"), which both etcd and Netty read. */
    private static Path writeKey(Path file, KeyPair keys) throws IOException {
        try (Writer w = Files.newBufferedWriter(file); JcaPEMWriter pem = new JcaPEMWriter(w)) {
            pem.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null));
        }
        return file;
    }
}
