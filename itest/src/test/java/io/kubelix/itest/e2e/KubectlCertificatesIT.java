package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The certificates.k8s.io and node.k8s.io plugins (resource-certificates, resource-node) in the
 * built distribution, driven by the real kubectl: openssl makes a key and a certificate signing
 * request, {@code kubectl apply} submits it to the {@code kubernetes.io/kube-apiserver-client}
 * signer, {@code kubectl certificate approve} approves it, the signer issues the certificate, and
 * kubectl authenticates with it as the request's common name. A denied request gets no
 * certificate, one the signer cannot accept fails, an invalid one is 422, one for system:masters is 403,
 * approving takes the approve verb on the signer, and runtime classes are
 * created and listed with kube's columns. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlCertificatesIT extends KubectlSuite {
    private static final String CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client";

    KubectlCertificatesIT() {
        super("certificates", "csr,runtimeclasses");
    }

    /** A new EC key {@code <name>.key} and its CSR {@code <name>.csr} for {@code subject}, by openssl. */
    private byte[] request(String name, String subject) throws Exception {
        Openssl.run(work, "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", name + ".key");
        Openssl.run(work, "req", "-new", "-key", name + ".key", "-subj", subject, "-out", name + ".csr");
        return Files.readAllBytes(work.resolve(name + ".csr"));
    }

    private Path csrManifest(String name, byte[] request, String signerName, String usages) throws Exception {
        return write(name + "-csr.yaml", "apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n"
                + "  name: " + name + "\nspec:\n  request: " + Base64.getEncoder().encodeToString(request) + "\n"
                + "  signerName: " + signerName + "\n  expirationSeconds: 86400\n  usages: [" + usages + "]\n");
    }

    private JsonNode csr(String name) throws Exception {
        return JSON.readTree(kubectl.ok("get", "csr", name, "-o", "json").stdout());
    }

    @Test
    @Order(1)
    void anApprovedRequestIsIssuedAndItsCertificateAuthenticates() throws Exception {
        Path manifest = csrManifest("jane", request("jane", "/O=dev/CN=jane"), CLIENT_SIGNER, "client auth");
        assertEquals("certificatesigningrequest.certificates.k8s.io/jane created",
                kubectl.ok("apply", "-f", manifest.toString()).stdout().trim());

        List<String> lines = kubectl.ok("get", "csr").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+AGE\\s+SIGNERNAME\\s+REQUESTOR\\s+REQUESTEDDURATION\\s+CONDITION"),
                lines::toString);
        assertTrue(lines.get(1).matches("jane\\s+\\d+s\\s+" + CLIENT_SIGNER + "\\s+admin\\s+24h\\s+Pending"), lines::toString);
        JsonNode pending = csr("jane");
        assertEquals("admin", pending.path("spec").path("username").asText(), pending::toString);
        assertTrue(pending.path("spec").path("groups").toString().contains("system:masters"), pending::toString);

        assertEquals("certificatesigningrequest.certificates.k8s.io/jane approved",
                kubectl.ok("certificate", "approve", "jane").stdout().trim());
        JsonNode issued = await("the certificate of jane", () -> csr("jane"),
                c -> !c.path("status").path("certificate").asText().isEmpty());
        JsonNode approved = issued.path("status").path("conditions").path(0);
        assertEquals("Approved", approved.path("type").asText(), issued::toString);
        assertEquals("KubectlApprove", approved.path("reason").asText(), issued::toString);
        assertTrue(approved.path("lastUpdateTime").asText().endsWith("Z"), issued::toString);
        assertTrue(kubectl.ok("get", "csr", "jane").stdout().lines()
                .anyMatch(l -> l.matches("jane\\s+\\d+s\\s+" + CLIENT_SIGNER + "\\s+admin\\s+24h\\s+Approved,Issued")));

        Path certificate = work.resolve("jane.crt");
        Files.write(certificate, Base64.getDecoder().decode(issued.path("status").path("certificate").asText()));
        Openssl.run(work, "verify", "-CAfile", server.caCertificate().toString(), "jane.crt");
        Path kubeconfig = write("jane.kubeconfig", "apiVersion: v1\nkind: Config\nclusters:\n- name: kubelix\n  cluster:\n"
                + "    server: https://127.0.0.1:" + server.port() + "\n    certificate-authority: " + server.caCertificate()
                + "\nusers:\n- name: jane\n  user:\n    client-certificate: " + certificate + "\n    client-key: "
                + work.resolve("jane.key") + "\ncontexts:\n- name: jane\n  context:\n    cluster: kubelix\n    user: jane\n"
                + "current-context: jane\n");
        Kubectl jane = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"), kubeconfig, work.resolve("home"));
        JsonNode user = JSON.readTree(jane.ok("auth", "whoami", "-o", "json").stdout()).path("status").path("userInfo");
        assertEquals("jane", user.path("username").asText(), user::toString);
        assertTrue(user.path("groups").toString().contains("\"dev\""), user::toString);
    }

    @Test
    @Order(2)
    void aDeniedRequestGetsNoCertificate() throws Exception {
        kubectl.ok("apply", "-f", csrManifest("bob", request("bob", "/CN=bob"), CLIENT_SIGNER, "client auth").toString());
        assertEquals("certificatesigningrequest.certificates.k8s.io/bob denied",
                kubectl.ok("certificate", "deny", "bob").stdout().trim());
        assertTrue(kubectl.ok("get", "csr", "bob").stdout().lines()
                .anyMatch(l -> l.matches("bob\\s+\\d+s\\s+" + CLIENT_SIGNER + "\\s+admin\\s+24h\\s+Denied")));
        Result approve = kubectl.run("certificate", "approve", "bob");
        assertNotEquals(0, approve.exitCode(), approve::toString);
        assertTrue(approve.stderr().contains("certificate signing request \"bob\" is already Denied"), approve::toString);

        // Past kubectl's own check, the server refuses the second deciding condition.
        com.fasterxml.jackson.databind.node.ObjectNode both = (com.fasterxml.jackson.databind.node.ObjectNode) csr("bob");
        ((com.fasterxml.jackson.databind.node.ArrayNode) both.path("status").path("conditions")).addObject()
                .put("type", "Approved").put("status", "True").put("reason", "Insisted");
        Path file = write("bob-approved.json", JSON.writeValueAsString(both));
        Result raw = kubectl.run("replace", "--raw", "/apis/certificates.k8s.io/v1/certificatesigningrequests/bob/approval",
                "-f", file.toString());
        assertNotEquals(0, raw.exitCode(), raw::toString);
        assertTrue(raw.stderr().contains("Approved and Denied conditions are mutually exclusive"), raw::toString);
        Thread.sleep(1000);
        assertTrue(csr("bob").path("status").path("certificate").isMissingNode(), () -> "bob was issued a certificate");
    }

    @Test
    @Order(3)
    void aRequestTheSignerCannotAcceptFails() throws Exception {
        kubectl.ok("apply", "-f", csrManifest("web", request("web", "/CN=web"), CLIENT_SIGNER, "server auth").toString());
        kubectl.ok("certificate", "approve", "web");
        JsonNode failed = await("the Failed condition of web", () -> csr("web"),
                c -> c.path("status").path("conditions").toString().contains("\"Failed\""));
        JsonNode condition = failed.path("status").path("conditions").path(1);
        assertEquals("SignerValidationFailure", condition.path("reason").asText(), failed::toString);
        assertEquals("invalid usage for client certificate: server auth", condition.path("message").asText(), failed::toString);
        assertTrue(failed.path("status").path("certificate").isMissingNode(), failed::toString);
    }

    @Test
    @Order(4)
    void invalidRequestsAre422AndSystemMastersIsForbidden() throws Exception {
        Path notPem = csrManifest("bad", "not a request".getBytes(), CLIENT_SIGNER, "client auth");
        Result r = kubectl.run("create", "-f", notPem.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The CertificateSigningRequest \"bad\" is invalid: spec.request: Invalid value: "),
                r::toString);
        assertTrue(r.stderr().contains("PEM block type must be CERTIFICATE REQUEST"), r::toString);

        Path legacy = csrManifest("legacy", request("legacy", "/CN=legacy"), "kubernetes.io/legacy-unknown", "client auth");
        Result l = kubectl.run("create", "-f", legacy.toString());
        assertNotEquals(0, l.exitCode(), l::toString);
        assertTrue(l.stderr().contains("spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy "
                + "signerName is not allowed via this API version"), l::toString);

        Path masters = csrManifest("mallory", request("mallory", "/O=system:masters/CN=mallory"), CLIENT_SIGNER, "client auth");
        Result m = kubectl.run("create", "-f", masters.toString());
        assertNotEquals(0, m.exitCode(), m::toString);
        assertTrue(m.stderr().contains("certificatesigningrequests.certificates.k8s.io \"mallory\" is forbidden: use of "
                + CLIENT_SIGNER + " signer with system:masters group is not allowed"), m::toString);
    }

    @Test
    @Order(5)
    void runtimeClassesAreCreatedAndListedWithKubesColumns() throws Exception {
        Path manifest = write("runtimeclass.yaml", "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n"
                + "  name: gvisor\nhandler: runsc\noverhead:\n  podFixed:\n    cpu: 250m\n    memory: 64Mi\n"
                + "scheduling:\n  nodeSelector:\n    runtime: gvisor\n");
        assertEquals("runtimeclass.node.k8s.io/gvisor created", kubectl.ok("apply", "-f", manifest.toString()).stdout().trim());
        List<String> lines = kubectl.ok("get", "runtimeclasses").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+HANDLER\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("gvisor\\s+runsc\\s+\\d+s"), lines::toString);
        assertEquals("250m", JSON.readTree(kubectl.ok("get", "runtimeclass", "gvisor", "-o", "json").stdout())
                .path("overhead").path("podFixed").path("cpu").asText());

        Path bad = write("bad-runtimeclass.yaml", "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n"
                + "  name: bad\nhandler: Not_A_Label\n");
        Result r = kubectl.run("create", "-f", bad.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The RuntimeClass \"bad\" is invalid: handler: Invalid value: \"Not_A_Label\""),
                r::toString);
    }

    @Test
    @Order(6)
    void approvingNeedsTheApproveVerbOnTheSigner() throws Exception {
        kubectl.ok("apply", "-f", csrManifest("carol", request("carol", "/CN=carol"), CLIENT_SIGNER, "client auth").toString());
        kubectl.ok("create", "serviceaccount", "approver");
        kubectl.ok("apply", "-f", write("approver.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
                + "metadata:\n  name: csr-approver\nrules:\n- apiGroups: [certificates.k8s.io]\n"
                + "  resources: [certificatesigningrequests, certificatesigningrequests/approval]\n  verbs: [get, list, update]\n"
                + "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: csr-approver\n"
                + "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: csr-approver\nsubjects:\n"
                + "- kind: ServiceAccount\n  name: approver\n  namespace: default\n").toString());
        String token = kubectl.ok("create", "token", "approver").stdout().trim();

        Result refused = await("the approver's binding", () -> kubectl.run("--token=" + token, "certificate", "approve", "carol"),
                r -> r.stderr().contains("forbidden: user not permitted"));
        assertTrue(refused.stderr().contains("certificatesigningrequests.certificates.k8s.io \"carol\" is forbidden: user not "
                + "permitted to approve requests with signerName \"" + CLIENT_SIGNER + "\""), refused::toString);

        kubectl.ok("apply", "-f", write("signer-approver.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
                + "metadata:\n  name: signer-approver\nrules:\n- apiGroups: [certificates.k8s.io]\n  resources: [signers]\n"
                + "  resourceNames: [\"kubernetes.io/*\"]\n  verbs: [approve]\n---\napiVersion: rbac.authorization.k8s.io/v1\n"
                + "kind: ClusterRoleBinding\nmetadata:\n  name: signer-approver\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n"
                + "  kind: ClusterRole\n  name: signer-approver\nsubjects:\n- kind: ServiceAccount\n  name: approver\n"
                + "  namespace: default\n").toString());
        await("carol approved by the approver", () -> kubectl.run("--token=" + token, "certificate", "approve", "carol"),
                r -> r.exitCode() == 0);
        await("the certificate of carol", () -> csr("carol"), c -> !c.path("status").path("certificate").asText().isEmpty());
    }
}
