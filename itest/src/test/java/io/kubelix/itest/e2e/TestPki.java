package io.kubelix.itest.e2e;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** Certificates for the end-to-end tests, made with the openssl command in a directory of their own. */
final class TestPki {
    private final Path dir;

    TestPki(Path dir) throws Exception {
        this.dir = Files.createDirectories(dir);
    }

    Path dir() {
        return dir;
    }

    /** A self-signed P-256 CA, {@code ca.crt} and {@code ca.key}. */
    TestPki ca(String commonName) throws Exception {
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-subj", "/CN=" + commonName, "-keyout", "ca.key", "-out", "ca.crt");
        return this;
    }

    /** A client certificate of the CA, {@code <file>.crt} and {@code <file>.key} (PKCS#8); subject such as {@code /O=g/CN=u}. */
    void client(String file, String subject) throws Exception {
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", subject,
                "-keyout", file + ".key", "-out", file + ".csr");
        Files.writeString(dir.resolve("client-ext.cnf"), "extendedKeyUsage=clientAuth\n");
        openssl("x509", "-req", "-in", file + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-extfile", "client-ext.cnf", "-out", file + ".crt");
    }

    /** A serving certificate of the CA for 127.0.0.1 and localhost, {@code <file>.crt} and {@code <file>.key}. */
    void server(String file) throws Exception {
        server(file, "IP:127.0.0.1,DNS:localhost");
    }

    /** A serving certificate of the CA for {@code subjectAltName} (openssl's form, such as {@code DNS:a.example.com}). */
    void server(String file, String subjectAltName) throws Exception {
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=127.0.0.1",
                "-keyout", file + ".key", "-out", file + ".csr");
        Files.writeString(dir.resolve("server-ext.cnf"),
                "extendedKeyUsage=serverAuth\nsubjectAltName=" + subjectAltName + "\n");
        openssl("x509", "-req", "-in", file + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-extfile", "server-ext.cnf", "-out", file + ".crt");
    }

    /**
     * A kubeconfig, {@code <file>.kubeconfig}, for a server on loopback at {@code port} verified
     * with {@code serverCa}, that authenticates with {@code <file>.crt} and {@code <file>.key}.
     */
    Path kubeconfig(String file, int port, Path serverCa) throws Exception {
        Path kubeconfig = dir.resolve(file + ".kubeconfig");
        Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\nclusters:\n- name: kubelix\n  cluster:\n"
                + "    server: https://127.0.0.1:" + port + "\n    certificate-authority: " + serverCa + "\n"
                + "users:\n- name: " + file + "\n  user:\n    client-certificate: " + dir.resolve(file + ".crt")
                + "\n    client-key: " + dir.resolve(file + ".key") + "\ncontexts:\n- name: " + file + "\n  context:\n"
                + "    cluster: kubelix\n    user: " + file + "\ncurrent-context: " + file + "\n");
        return kubeconfig;
    }

    /** TLS that presents {@code <file>.crt} as its certificate (a server's, or a client's). */
    SSLContext serverContext(String file) throws Exception {
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(keyManagers(file), null, null);
        return ssl;
    }

    /** TLS that presents {@code <file>.crt} as the client certificate and trusts {@code serverCa}. */
    SSLContext clientContext(String file, Path serverCa) throws Exception {
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(serverCa)) {
            trust.setCertificateEntry("server-ca", x509.generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(keyManagers(file), tmf.getTrustManagers(), null);
        return ssl;
    }

    private KeyManager[] keyManagers(String file) throws Exception {
        Certificate certificate;
        try (InputStream in = Files.newInputStream(dir.resolve(file + ".crt"))) {
            certificate = CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        String pem = Files.readString(dir.resolve(file + ".key"), StandardCharsets.US_ASCII);
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("key", key, new char[0], new Certificate[]{certificate});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        return kmf.getKeyManagers();
    }

    private void openssl(String... args) throws Exception {
        Openssl.run(dir, args);
    }
}
