package io.kubelix.resource.certificates;

import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupVersionKind;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SigningTest {

    @Test
    void theClientSignerTakesClientAuthWithDigitalSignatureAndKeyEnciphermentOnly() {
        assertNull(CSRSigningController.clientUsagesRefusal(List.of("client auth")));
        assertNull(CSRSigningController.clientUsagesRefusal(List.of("digital signature", "key encipherment", "client auth")));
        assertEquals("invalid usage for client certificate: server auth",
                CSRSigningController.clientUsagesRefusal(List.of("client auth", "server auth")));
        assertEquals("missing required usage for client certificate: client auth",
                CSRSigningController.clientUsagesRefusal(List.of("digital signature")));
    }

    @Test
    void theDurationIsTheRequestedOneWithinTheSignersBounds() {
        Duration year = Duration.ofHours(8760);
        assertEquals(year, CSRSigningController.duration(null, year));
        assertEquals(Duration.ofHours(1), CSRSigningController.duration(3600L, year));
        assertEquals(year, CSRSigningController.duration(Long.valueOf(Integer.MAX_VALUE), year));
        assertEquals(Duration.ofMinutes(10), CSRSigningController.duration(300L, year));
    }

    @Test
    void issuesTheRequestedClientCertificateSignedByTheCa(@TempDir Path dir) throws Exception {
        KeyPair caKeys = TestRequests.keyPair();
        Files.write(dir.resolve("ca.crt"), TestRequests.caPem(caKeys, Duration.ofDays(3650)));
        Files.writeString(dir.resolve("ca.key"), PemBlocks.encode("PRIVATE KEY", caKeys.getPrivate().getEncoded()));
        SigningAuthority ca = new SigningAuthority(dir.resolve("ca.crt"), dir.resolve("ca.key"));
        Instant now = Instant.parse("2026-01-02T03:04:05Z");
        byte[] pem = ca.sign(PemBlocks.parseRequest(TestRequests.requestPem("CN=jane,O=dev")), List.of("client auth",
                "digital signature"), Duration.ofHours(1), now);

        X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem));
        cert.verify(caKeys.getPublic());
        assertEquals("O=dev,CN=jane", cert.getSubjectX500Principal().getName());
        assertEquals("CN=test-ca", cert.getIssuerX500Principal().getName());
        assertEquals(List.of("1.3.6.1.5.5.7.3.2"), cert.getExtendedKeyUsage());
        assertTrue(cert.getKeyUsage()[0], "digital signature");
        assertEquals(-1, cert.getBasicConstraints());
        assertEquals(now.minus(SigningAuthority.BACKDATE), cert.getNotBefore().toInstant());
        assertEquals(now.minus(SigningAuthority.BACKDATE).plus(Duration.ofHours(1)), cert.getNotAfter().toInstant());
        PemBlocks.checkCertificates(pem);
    }

    /** Grants {@code verb} on the signers named in {@code allowed}, as RBAC would. */
    private static AuthorizationChain granting(Set<String> allowed, List<String> asked) {
        return new AuthorizationChain() {
            @Override
            public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
                asked.add(request.verb() + " " + request.apiGroup() + "/" + request.resource() + " " + request.name());
                return allowed.contains(request.verb() + " " + request.name()) ? AuthorizationDecision.allow("")
                        : AuthorizationDecision.noOpinion();
            }

            @Override
            public SubjectRules rulesFor(UserInfo user, String namespace) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static AdmissionAttributes update(String subresource, ObjectNode csr, ObjectNode old) {
        return new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("certificates.k8s.io", "v1",
                "CertificateSigningRequest"), CertificatesRESTStorageProvider.CSRS_V1, subresource, "", "jane", csr, old, false,
                TestRequests.as("bob", "", List.of("system:authenticated"), Map.of()));
    }

    @Test
    void approvingNeedsApproveOnTheSignerOrItsDomain() throws Exception {
        ObjectNode csr = TestRequests.csr("jane", SignerNames.KUBE_APISERVER_CLIENT);
        List<String> asked = new ArrayList<>();
        StatusException e = assertThrows(StatusException.class,
                () -> new CertificateApproval(granting(Set.of(), asked)).validate(update("approval", csr, csr)));
        assertEquals(403, e.code());
        assertEquals("certificatesigningrequests.certificates.k8s.io \"jane\" is forbidden: user not permitted to approve "
                + "requests with signerName \"kubernetes.io/kube-apiserver-client\"", e.getMessage());
        assertEquals(List.of("approve certificates.k8s.io/signers kubernetes.io/kube-apiserver-client",
                "approve certificates.k8s.io/signers kubernetes.io/*"), asked);

        new CertificateApproval(granting(Set.of("approve kubernetes.io/*"), new ArrayList<>()))
                .validate(update("approval", csr, csr));
        new CertificateApproval(granting(Set.of(), new ArrayList<>()))
                .validate(update("status", csr, csr));
    }

    @Test
    void signingNeedsSignWhenTheCertificateOrConditionsChange() throws Exception {
        ObjectNode old = TestRequests.csr("jane", SignerNames.KUBE_APISERVER_CLIENT);
        CertificateSigning plugin = new CertificateSigning(granting(Set.of(), new ArrayList<>()));
        plugin.validate(update("status", old.deepCopy(), old));
        ObjectNode issued = old.deepCopy();
        issued.putObject("status").put("certificate", "aGVsbG8=");
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(update("status", issued, old)));
        assertEquals("certificatesigningrequests.certificates.k8s.io \"jane\" is forbidden: user not permitted to sign "
                + "requests with signerName \"kubernetes.io/kube-apiserver-client\"", e.getMessage());
        new CertificateSigning(granting(Set.of("sign kubernetes.io/kube-apiserver-client"),
                new ArrayList<>())).validate(update("status", issued, old));
    }

    @Test
    void noClientCertificateForSystemMastersMayBeRequested() throws Exception {
        CertificateSubjectRestriction plugin = new CertificateSubjectRestriction();
        ObjectNode masters = TestRequests.csr("mallory", SignerNames.KUBE_APISERVER_CLIENT);
        masters.with("spec").put("request", java.util.Base64.getEncoder().encodeToString(
                TestRequests.requestPem("CN=mallory,O=system:masters")));
        AdmissionAttributes create = new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("certificates.k8s.io",
                "v1", "CertificateSigningRequest"), CertificatesRESTStorageProvider.CSRS_V1, "", "", "mallory", masters, null,
                false, TestRequests.as("bob", "", List.of(), Map.of()));
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(create));
        assertEquals("certificatesigningrequests.certificates.k8s.io \"mallory\" is forbidden: use of "
                + "kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed", e.getMessage());

        masters.with("spec").put("signerName", "example.com/mine");
        plugin.validate(create);
        plugin.validate(update("", TestRequests.csr("jane", SignerNames.KUBE_APISERVER_CLIENT), null));
    }
}
