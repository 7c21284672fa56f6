package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

/** Keys, CSRs and a CA made with Bouncy Castle, as openssl would make them, and request contexts. */
final class TestRequests {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private TestRequests() {
    }

    static KeyPair keyPair() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    /** A PEM CERTIFICATE REQUEST for {@code subject}, such as {@code CN=jane,O=dev}. */
    static byte[] requestPem(String subject) throws Exception {
        KeyPair keys = keyPair();
        var request = new JcaPKCS10CertificationRequestBuilder(new X500Name(subject), keys.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate()));
        return PemBlocks.encode(PemBlocks.CERTIFICATE_REQUEST, request.getEncoded()).getBytes();
    }

    /** A self-signed CA certificate, PEM, for {@code keys}. */
    static byte[] caPem(KeyPair keys, Duration validity) throws Exception {
        Instant now = Instant.now();
        var builder = new JcaX509v3CertificateBuilder(new X500Name("CN=test-ca"), BigInteger.ONE, Date.from(now.minusSeconds(60)),
                Date.from(now.plus(validity)), new X500Name("CN=test-ca"), keys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        builder.addExtension(Extension.subjectKeyIdentifier, false,
                new org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils().createSubjectKeyIdentifier(keys.getPublic()));
        return PemBlocks.encode(PemBlocks.CERTIFICATE,
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())).getEncoded()).getBytes();
    }

    /** What {@code kubectl apply} sends for a CSR of {@code signerName} with client auth usage. */
    static ObjectNode csr(String name, String signerName) throws Exception {
        ObjectNode csr = MAPPER.createObjectNode().put("apiVersion", "certificates.k8s.io/v1")
                .put("kind", "CertificateSigningRequest");
        csr.putObject("metadata").put("name", name);
        ObjectNode spec = csr.putObject("spec");
        spec.put("request", Base64.getEncoder().encodeToString(requestPem("CN=" + name + ",O=dev")));
        spec.put("signerName", signerName);
        spec.putArray("usages").add("client auth");
        return csr;
    }

    /** A request made by {@code user} in {@code groups}. */
    static RequestContext as(String user, String uid, List<String> groups, Map<String, List<String>> extra) {
        UserInfo info = new UserInfo(user, uid, groups, extra);
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return info;
            }

            @Override
            public RequestInfo requestInfo() {
                return null;
            }

            @Override
            public String namespace() {
                return "";
            }

            @Override
            public void addWarning(String message) {
            }
        };
    }
}
