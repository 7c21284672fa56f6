package io.kubelix.support.webhook.x509;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.kubelix.support.webhook.WebhookKubeconfig;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.X509KeyManager;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A kubeconfig user's client certificate: read in its file and -data forms, its key in the PEM forms Go reads. */
class ClientCertificateTest {
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void theKubeconfigsClientCertificateIsPresented() throws Exception {
        KeyPair keys = keys("RSA");
        String cert = pem(selfSigned(keys, "SHA256withRSA"));
        // PKCS#1 (RSA PRIVATE KEY), as openssl genrsa -traditional writes it.
        String key = pem(keys.getPrivate());
        Files.writeString(dir.resolve("client.crt"), cert);
        Files.writeString(dir.resolve("client.key"), key);
        Path config = dir.resolve("webhook.kubeconfig");
        Files.writeString(config, "{\"clusters\":[{\"cluster\":{\"server\":\"https://127.0.0.1:8443/authorize\"}}],"
                + "\"users\":[{\"user\":{\"client-certificate\":\"client.crt\",\"client-key-data\":\""
                + Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.US_ASCII)) + "\"}}]}");

        WebhookKubeconfig target = WebhookKubeconfig.read(config, JSON, "authorization webhook config file");
        assertArrayEquals(cert.getBytes(StandardCharsets.US_ASCII), target.clientCertPem());
        X509KeyManager manager = (X509KeyManager) ClientCertificate.keyManagers(target.clientCertPem(),
                target.clientKeyPem())[0];
        String alias = manager.chooseClientAlias(new String[] {"RSA"}, null, null);
        assertEquals("CN=webhook-client", manager.getCertificateChain(alias)[0].getSubjectX500Principal().getName());
        assertEquals(keys.getPrivate(), manager.getPrivateKey(alias));
    }

    @Test
    void ecKeysInPkcs8AreRead() throws Exception {
        KeyPair keys = keys("EC");
        String pkcs8 = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(keys.getPrivate()
                .getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        assertEquals(keys.getPrivate(), ClientCertificate.privateKey(pkcs8.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void aCertificateWithoutItsKeyIsRefused() throws Exception {
        Files.writeString(dir.resolve("client.crt"), pem(selfSigned(keys("EC"), "SHA256withECDSA")));
        Path config = dir.resolve("webhook.kubeconfig");
        Files.writeString(config, "{\"clusters\":[{\"cluster\":{\"server\":\"https://127.0.0.1:8443/\"}}],"
                + "\"users\":[{\"user\":{\"client-certificate\":\"client.crt\"}}]}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WebhookKubeconfig.read(config, JSON, "authorization webhook config file"));
        assertTrue(e.getMessage().contains("client certificate without its key"), e::getMessage);
    }

    private static KeyPair keys(String algorithm) throws Exception {
        return KeyPairGenerator.getInstance(algorithm).generateKeyPair();
    }

    private static X509Certificate selfSigned(KeyPair keys, String signature) throws Exception {
        X500Name name = new X500Name("CN=webhook-client");
        Instant now = Instant.now();
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name, BigInteger.ONE,
                Date.from(now.minusSeconds(60)), Date.from(now.plusSeconds(3600)), name, keys.getPublic())
                .build(new JcaContentSignerBuilder(signature).build(keys.getPrivate())));
    }

    /** BC's traditional PEM: PKCS#1 for RSA keys, SEC 1 for EC keys. */
    private static String pem(Object o) throws Exception {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(new JcaMiscPEMGenerator(o));
        }
        return out.toString();
    }
}
