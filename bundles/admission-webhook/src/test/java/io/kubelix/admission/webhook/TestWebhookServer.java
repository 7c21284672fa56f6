package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * An admission webhook for tests: HTTPS on a loopback port with a certificate of its own CA, for
 * {@code 127.0.0.1} and the given DNS names; every AdmissionReview it receives is recorded, with
 * the last segment of the path it was posted to as {@code _webhook}, and answered by {@code answer}
 * (given the review, returning the response object; null answers 500).
 */
final class TestWebhookServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final List<JsonNode> reviews = new CopyOnWriteArrayList<>();
    /** The {@code Authorization} header of each request, or "" when it had none. */
    final List<String> authorizations = new CopyOnWriteArrayList<>();
    final String caBundle;
    /** With {@link #requiringClientCertificates}: a certificate of the client CA, and its key, in PEM. */
    String clientCertPem;
    String clientKeyPem;
    private final HttpsServer server;
    volatile Function<JsonNode, ObjectNode> answer;

    TestWebhookServer(Function<JsonNode, ObjectNode> answer, String... dnsNames) throws Exception {
        this(answer, false, dnsNames);
    }

    /** A server whose TLS handshake requires a client certificate of its own client CA ({@link #clientCertPem}). */
    static TestWebhookServer requiringClientCertificates(Function<JsonNode, ObjectNode> answer) throws Exception {
        return new TestWebhookServer(answer, true);
    }

    private TestWebhookServer(Function<JsonNode, ObjectNode> answer, boolean clientCertificates, String... dnsNames)
            throws Exception {
        this.answer = answer;
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair caKeys = rsa.generateKeyPair();
        KeyPair serverKeys = rsa.generateKeyPair();
        X500Name caName = new X500Name("CN=webhook-test-ca");
        X509Certificate ca = certificate(caName, caKeys, caName, caKeys, true, null);
        GeneralName[] names = new GeneralName[dnsNames.length + 1];
        names[0] = new GeneralName(GeneralName.iPAddress, "127.0.0.1");
        for (int i = 0; i < dnsNames.length; i++) {
            names[i + 1] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
        }
        X509Certificate cert = certificate(caName, caKeys, new X500Name("CN=webhook"), serverKeys, false,
                new GeneralNames(names));
        caBundle = Base64.getEncoder().encodeToString(pem(ca).getBytes(StandardCharsets.US_ASCII));

        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("webhook", serverKeys.getPrivate(), new char[0], new X509Certificate[] {cert, ca});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        SSLContext tls = SSLContext.getInstance("TLS");
        TrustManagerFactory clients = null;
        if (clientCertificates) {
            KeyPair clientCaKeys = rsa.generateKeyPair();
            KeyPair clientKeys = rsa.generateKeyPair();
            X500Name clientCaName = new X500Name("CN=webhook-client-ca");
            X509Certificate clientCa = certificate(clientCaName, clientCaKeys, clientCaName, clientCaKeys, true, null);
            clientCertPem = pem(certificate(clientCaName, clientCaKeys, new X500Name("CN=kube-apiserver"), clientKeys,
                    false, null));
            clientKeyPem = pem(clientKeys.getPrivate());
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("client-ca", clientCa);
            clients = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            clients.init(trusted);
        }
        tls.init(kmf.getKeyManagers(), clients == null ? null : clients.getTrustManagers(), null);

        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = tls.getDefaultSSLParameters();
                p.setNeedClientAuth(clientCertificates);
                params.setSSLParameters(p);
            }
        });
        server.createContext("/", exchange -> {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            authorizations.add(authorization == null ? "" : authorization);
            ObjectNode review = (ObjectNode) JSON.readTree(exchange.getRequestBody());
            String path = exchange.getRequestURI().getPath();
            review.put("_webhook", path.substring(path.lastIndexOf('/') + 1));
            reviews.add(review);
            ObjectNode response = this.answer.apply(review);
            byte[] body;
            if (response == null) {
                body = new byte[0];
            } else {
                ObjectNode out = JSON.createObjectNode();
                out.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
                out.set("response", response);
                body = JSON.writeValueAsBytes(out);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(response == null ? 500 : 200, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    private static String pem(Object o) throws java.io.IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        return out.toString();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url(String path) {
        return "https://127.0.0.1:" + port() + path;
    }

    /** An answer allowing the request, with {@code uid} copied from it. */
    static ObjectNode allow(JsonNode review) {
        ObjectNode r = JSON.createObjectNode();
        r.put("uid", review.path("request").path("uid").asText()).put("allowed", true);
        return r;
    }

    /** An answer denying the request with a Status of this code and message. */
    static ObjectNode deny(JsonNode review, int code, String message) {
        ObjectNode r = JSON.createObjectNode();
        r.put("uid", review.path("request").path("uid").asText()).put("allowed", false);
        r.putObject("status").put("code", code).put("message", message);
        return r;
    }

    /** An answer allowing the request with a JSON Patch. */
    static ObjectNode patch(JsonNode review, String jsonPatch) {
        ObjectNode r = allow(review);
        r.put("patchType", "JSONPatch");
        r.put("patch", Base64.getEncoder().encodeToString(jsonPatch.getBytes(StandardCharsets.UTF_8)));
        return r;
    }

    private static X509Certificate certificate(X500Name issuer, KeyPair issuerKeys, X500Name subject, KeyPair subjectKeys,
                                               boolean isCa, GeneralNames sans) throws Exception {
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(now.toEpochMilli()),
                java.util.Date.from(now.minus(1, ChronoUnit.HOURS)), java.util.Date.from(now.plus(1, ChronoUnit.DAYS)),
                subject, subjectKeys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
        if (sans != null) {
            b.addExtension(Extension.subjectAlternativeName, false, sans);
        }
        X509CertificateHolder holder = b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate()));
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
