package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RBAC enforced in the default distribution, driven by kubectl: a fresh service account may do
 * nothing until a binding grants it, may do what the binding grants once it exists (no restart),
 * and loses it when the binding goes; anonymous requests reach what kube's bootstrap roles give
 * {@code system:unauthenticated}, and nothing else.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlRbacIT extends KubectlSuite {
    private static final String NS = "rbac-test";
    private String token;

    KubectlRbacIT() {
        super("rbac", "roles,rolebindings,serviceaccounts");
    }

    @Override
    void afterStart() throws Exception {
        kubectl.ok("create", "namespace", NS);
        kubectl.ok("-n", NS, "create", "serviceaccount", "reader");
        kubectl.ok("-n", NS, "create", "configmap", "settings", "--from-literal=a=b");
        token = await("kubectl create token reader", () -> kubectl.run("-n", NS, "create", "token", "reader"),
                r -> r.exitCode() == 0).stdout().trim();
    }

    @Test
    @Order(1)
    void aFreshServiceAccountIsForbiddenWithKubesMessage() throws Exception {
        Result r = kubectl.run("--token=" + token, "-n", NS, "get", "configmaps");

        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Error from server (Forbidden): configmaps is forbidden: User "
                + "\"system:serviceaccount:" + NS + ":reader\" cannot list resource \"configmaps\" in API group \"\""
                + " in the namespace \"" + NS + "\""), r::toString);

        Result canI = kubectl.run("--token=" + token, "-n", NS, "auth", "can-i", "list", "configmaps");
        assertEquals("no", canI.stdout().trim(), canI::toString);
        assertEquals(1, canI.exitCode(), canI::toString);
    }

    @Test
    @Order(2)
    void aRoleBindingGrantsWhatItsRoleAllowsWithoutARestart() throws Exception {
        kubectl.ok("-n", NS, "create", "role", "cm-reader", "--verb=get,list", "--resource=configmaps");
        kubectl.ok("-n", NS, "create", "rolebinding", "reader-reads", "--role=cm-reader",
                "--serviceaccount=" + NS + ":reader");

        Result list = await("the binding applies", () -> kubectl.run("--token=" + token, "-n", NS, "get",
                "configmaps", "-o", "name"), r -> r.exitCode() == 0);
        assertTrue(list.stdout().lines().anyMatch("configmap/settings"::equals), list::toString);

        Result delete = kubectl.run("--token=" + token, "-n", NS, "delete", "configmap", "settings");
        assertNotEquals(0, delete.exitCode(), "the role does not grant delete: " + delete);
        assertTrue(delete.stderr().contains("cannot delete resource \"configmaps\""), delete::toString);
        Result otherNamespace = kubectl.run("--token=" + token, "-n", "default", "get", "configmaps");
        assertNotEquals(0, otherNamespace.exitCode(), "a role binding grants in its namespace only: " + otherNamespace);
        Result secrets = kubectl.run("--token=" + token, "-n", NS, "get", "secrets");
        assertNotEquals(0, secrets.exitCode(), secrets::toString);

        // kubectl auth can-i asks the same authorizers (SelfSubjectAccessReview, SelfSubjectRulesReview).
        assertEquals("yes", kubectl.ok("--token=" + token, "-n", NS, "auth", "can-i", "get", "configmaps/settings")
                .stdout().trim());
        Result cannot = kubectl.run("--token=" + token, "-n", NS, "auth", "can-i", "delete", "configmaps");
        assertEquals("no", cannot.stdout().trim(), cannot::toString);
        Result rules = kubectl.ok("--token=" + token, "-n", NS, "auth", "can-i", "--list");
        assertTrue(rules.stdout().lines().anyMatch(l -> l.matches("configmaps\\s+\\[]\\s+\\[]\\s+\\[get list]")),
                rules::toString);
        // The admin is in system:masters: allowed everything.
        assertEquals("yes", kubectl.ok("auth", "can-i", "delete", "secrets", "-A").stdout().trim());
    }

    @Test
    @Order(3)
    void deletingTheBindingTakesTheGrantAway() throws Exception {
        kubectl.ok("-n", NS, "delete", "rolebinding", "reader-reads");

        Result r = await("the binding's removal applies", () -> kubectl.run("--token=" + token, "-n", NS, "get",
                "configmaps"), res -> res.exitCode() != 0);
        assertTrue(r.stderr().contains("Forbidden"), r::toString);
    }

    @Test
    @Order(4)
    void anonymousRequestsReachThePublicInformationOnly() throws Exception {
        HttpResponse<String> version = server.get("/version", null);
        assertEquals(200, version.statusCode(), version::body);
        assertTrue(version.body().contains("\"gitVersion\""), version::body);

        HttpResponse<String> secrets = server.get("/api/v1/secrets", null);
        assertEquals(403, secrets.statusCode(), secrets::body);
        assertEquals("secrets is forbidden: User \"system:anonymous\" cannot list resource \"secrets\" in API group"
                + " \"\" at the cluster scope", JSON.readTree(secrets.body()).path("message").asText(), secrets::body);

        HttpResponse<String> discovery = server.get("/apis", null);
        assertEquals(403, discovery.statusCode(), "discovery is for authenticated users: " + discovery.body());
        assertEquals(200, server.get("/apis", token).statusCode(), "system:discovery is bound to system:authenticated");
    }

    @Test
    @Order(5)
    void rolesAndBindingsMayGrantOnlyWhatTheWriterHolds() throws Exception {
        kubectl.ok("-n", NS, "create", "role", "rbac-writer", "--verb=create", "--resource=roles,rolebindings");
        kubectl.ok("-n", NS, "create", "rolebinding", "reader-writes-rbac", "--role=rbac-writer",
                "--serviceaccount=" + NS + ":reader");
        kubectl.ok("-n", NS, "create", "rolebinding", "reader-reads-again", "--role=cm-reader",
                "--serviceaccount=" + NS + ":reader");
        await("the bindings apply", () -> kubectl.run("--token=" + token, "-n", NS, "auth", "can-i", "create", "roles"),
                r -> r.exitCode() == 0);

        kubectl.ok("--token=" + token, "-n", NS, "create", "role", "held", "--verb=get", "--resource=configmaps");

        Result escalate = kubectl.run("--token=" + token, "-n", NS, "create", "role", "not-held", "--verb=delete",
                "--resource=secrets");
        assertNotEquals(0, escalate.exitCode(), escalate::toString);
        assertTrue(escalate.stderr().contains("roles.rbac.authorization.k8s.io \"not-held\" is forbidden: user "
                + "\"system:serviceaccount:" + NS + ":reader\""), escalate::toString);
        assertTrue(escalate.stderr().contains("is attempting to grant RBAC permissions not currently held:"),
                escalate::toString);
        assertTrue(escalate.stderr().contains("{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"delete\"]}"),
                escalate::toString);

        Result bindAdmin = kubectl.run("--token=" + token, "-n", NS, "create", "rolebinding", "grab-admin",
                "--clusterrole=admin", "--serviceaccount=" + NS + ":reader");
        assertNotEquals(0, bindAdmin.exitCode(), bindAdmin::toString);
        assertTrue(bindAdmin.stderr().contains("rolebindings.rbac.authorization.k8s.io \"grab-admin\" is forbidden"),
                bindAdmin::toString);
        kubectl.ok("--token=" + token, "-n", NS, "create", "rolebinding", "share-held", "--role=held",
                "--serviceaccount=" + NS + ":default");
    }

    @Test
    @Order(6)
    void whoamiAnswersForTokensServiceAccountsAndClientCertificates() throws Exception {
        Result admin = kubectl.ok("auth", "whoami", "-o", "json");
        assertEquals("admin", JSON.readTree(admin.stdout()).path("status").path("userInfo").path("username").asText());

        Result sa = kubectl.ok("--token=" + token, "auth", "whoami", "-o", "json");
        assertEquals("system:serviceaccount:" + NS + ":reader",
                JSON.readTree(sa.stdout()).path("status").path("userInfo").path("username").asText(), sa::toString);

        // The admin's client certificate (O=system:masters), as kubeadm's admin.conf carries one.
        Kubectl x509 = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"),
                server.kubeconfig().resolveSibling("admin-x509.kubeconfig"), work.resolve("home"));
        JsonNode info = JSON.readTree(x509.ok("auth", "whoami", "-o", "json").stdout()).path("status").path("userInfo");
        assertEquals("admin", info.path("username").asText(), info::toString);
        assertTrue(info.path("groups").toString().contains("\"system:masters\""), info::toString);
        x509.ok("get", "secrets", "-A");

        // TokenReview: who a token is, as a webhook or an aggregated server asks.
        Path review = work.resolve("tokenreview.json");
        Files.writeString(review, "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\","
                + "\"spec\":{\"token\":\"" + token + "\"}}");
        JsonNode reviewed = JSON.readTree(kubectl.ok("create", "--raw", "/apis/authentication.k8s.io/v1/tokenreviews",
                "-f", review.toString()).stdout()).path("status");
        assertTrue(reviewed.path("authenticated").asBoolean(), reviewed::toString);
        assertEquals("system:serviceaccount:" + NS + ":reader", reviewed.path("user").path("username").asText());
        Files.writeString(review, "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\","
                + "\"spec\":{\"token\":\"not-a-token\"}}");
        assertEquals("false", JSON.readTree(kubectl.ok("create", "--raw", "/apis/authentication.k8s.io/v1/tokenreviews",
                "-f", review.toString()).stdout()).path("status").path("authenticated").asText());
    }

    @Test
    @Order(7)
    void aCertificateOfAnotherCAIsUnauthorized() throws Exception {
        Path pki = work.resolve("other-ca");
        Files.createDirectories(pki);
        Openssl.run(pki, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-subj", "/CN=other-ca", "-keyout", "ca.key", "-out", "ca.crt");
        Openssl.run(pki, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-subj", "/O=system:masters/CN=mallory", "-keyout", "client.key", "-out", "client.csr");
        Files.writeString(pki.resolve("ext.cnf"), "extendedKeyUsage=clientAuth\n");
        Openssl.run(pki, "x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-extfile", "ext.cnf", "-out", "client.crt");

        Path kubeconfig = pki.resolve("mallory.kubeconfig");
        Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\nclusters:\n- name: kubelix\n  cluster:\n"
                + "    server: https://127.0.0.1:" + server.port() + "\n    certificate-authority: "
                + server.kubeconfig().resolveSibling("pki").resolve("ca.crt") + "\nusers:\n- name: mallory\n  user:\n"
                + "    client-certificate: " + pki.resolve("client.crt") + "\n    client-key: " + pki.resolve("client.key")
                + "\ncontexts:\n- name: mallory\n  context:\n    cluster: kubelix\n    user: mallory\n"
                + "current-context: mallory\n");
        Result r = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"), kubeconfig, work.resolve("home"))
                .run("get", "secrets", "-A");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Unauthorized") || r.stderr().contains("must be logged in"), r::toString);
    }

    @Test
    @Order(8)
    void impersonationNeedsTheImpersonateVerb() throws Exception {
        // The admin may impersonate: kubectl --as acts as the service account, with its rights.
        Result asReader = kubectl.run("--as=system:serviceaccount:" + NS + ":reader", "-n", NS, "get", "secrets");
        assertNotEquals(0, asReader.exitCode(), asReader::toString);
        assertTrue(asReader.stderr().contains("User \"system:serviceaccount:" + NS + ":reader\" cannot list resource"
                + " \"secrets\""), asReader::toString);
        assertEquals("yes", kubectl.ok("--as=system:serviceaccount:" + NS + ":reader", "-n", NS, "auth", "can-i", "get",
                "configmaps").stdout().trim());

        // The service account may not: impersonating the admin is refused with kube's message.
        Result escalate = kubectl.run("--token=" + token, "--as=admin", "--as-group=system:masters", "get", "ns");
        assertNotEquals(0, escalate.exitCode(), escalate::toString);
        assertTrue(escalate.stderr().contains("users \"admin\" is forbidden: User \"system:serviceaccount:" + NS
                + ":reader\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope"),
                escalate::toString);
    }

    @Test
    @Order(9)
    void anAggregatedClusterRolePicksUpANewLabelledRole() throws Exception {
        // view grants no secrets of its own: a labelled role adds reading them, and takes it away when deleted.
        Path role = work.resolve("secret-viewer.yaml");
        Files.writeString(role, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n"
                + "  name: secret-viewer\n  labels:\n    rbac.authorization.k8s.io/aggregate-to-view: \"true\"\n"
                + "rules:\n- apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [get, list]\n");
        assertTrue(!kubectl.ok("get", "clusterrole", "view", "-o", "json").stdout().contains("\"secrets\""));
        kubectl.ok("create", "-f", role.toString());

        await("the rule reaches view", () -> kubectl.ok("get", "clusterrole", "view", "-o", "json"),
                r -> r.stdout().contains("\"secrets\""));
        kubectl.ok("-n", NS, "create", "rolebinding", "reader-views", "--clusterrole=view",
                "--serviceaccount=" + NS + ":reader");
        await("the aggregated rule is enforced", () -> kubectl.run("--token=" + token, "-n", NS, "get", "secrets"),
                r -> r.exitCode() == 0);

        kubectl.ok("delete", "clusterrole", "secret-viewer");
        await("the rule leaves view", () -> kubectl.ok("get", "clusterrole", "view", "-o", "json"),
                r -> !r.stdout().contains("\"secrets\""));
        await("and is no longer enforced", () -> kubectl.run("--token=" + token, "-n", NS, "get", "secrets"),
                r -> r.exitCode() != 0);
    }

    @Test
    @Order(10)
    void forgedAndStaleTokensAreUnauthorizedAndIdentityHeadersAreIgnored() throws Exception {
        String[] parts = token.split("\\.");
        ObjectNode claims = (ObjectNode) JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        assertEquals(200, server.get("/api/v1/namespaces/" + NS + "/configmaps/settings", token).statusCode(),
                "the real token works (cm-reader is bound again)");

        // alg none, and HS256 keyed with the server's public key (the key-confusion attack).
        String none = b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + parts[1] + ".";
        assertUnauthorized(none, "alg: none");
        PrivateKey key = serviceAccountKey();
        byte[] publicKey = publicKeyOf(key);
        String hsInput = b64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}") + "." + parts[1];
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(publicKey, "HmacSHA256"));
        assertUnauthorized(hsInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                mac.doFinal(hsInput.getBytes(StandardCharsets.US_ASCII))), "HS256 with the public key");

        // Signed with the server's own key, but expired, for another issuer, or for another audience.
        String header = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8);
        long now = System.currentTimeMillis() / 1000;
        ObjectNode expired = claims.deepCopy().put("iat", now - 7200).put("nbf", now - 7200).put("exp", now - 3600);
        assertUnauthorized(sign(header, expired, key), "expired");
        assertUnauthorized(sign(header, claims.deepCopy().put("iss", "https://evil.example.com"), key), "other issuer");
        assertUnauthorized(sign(header, claims.deepCopy().put("aud", "vault"), key), "other audience");
        assertEquals(200, server.get("/api/v1/namespaces/" + NS + "/configmaps/settings", sign(header, claims, key))
                .statusCode(), "the same claims re-signed with the key are accepted: the checks above are the claims'");

        // Front-proxy headers without front-proxy credentials are not an identity.
        HttpResponse<String> smuggled = server.getWithHeaders("/api/v1/secrets", null,
                "X-Remote-User", "admin", "X-Remote-Group", "system:masters");
        assertEquals(403, smuggled.statusCode(), smuggled::body);
        assertTrue(smuggled.body().contains("User \\\"system:anonymous\\\""), smuggled::body);
    }

    private void assertUnauthorized(String forged, String what) throws Exception {
        HttpResponse<String> r = server.get("/api/v1/namespaces/" + NS + "/configmaps/settings", forged);
        assertEquals(401, r.statusCode(), what + ": " + r.body());
    }

    private PrivateKey serviceAccountKey() throws Exception {
        String pem = Files.readString(server.kubeconfig().resolveSibling("service-account.key"));
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }

    private static byte[] publicKeyOf(PrivateKey key) throws Exception {
        RSAPrivateCrtKey rsa = (RSAPrivateCrtKey) key;
        PublicKey publicKey = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(rsa.getModulus(),
                rsa.getPublicExponent()));
        return ("-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(publicKey.getEncoded())
                + "\n-----END PUBLIC KEY-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static String sign(String header, JsonNode claims, PrivateKey key) throws Exception {
        String input = b64(header) + "." + b64(JSON.writeValueAsString(claims));
        Signature rs256 = Signature.getInstance("SHA256withRSA");
        rs256.initSign(key);
        rs256.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rs256.sign());
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
