package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kubectl with OpenID Connect ID tokens, as with Dex or Keycloak: the server started with kube's
 * {@code --oidc-*} flags reads the discovery document and keys of an issuer the test serves over
 * HTTPS (its own CA), authenticates a signed ID token as its email in its groups, RBAC decides
 * what that user and group may do, and a token that does not verify is Unauthorized.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlOidcIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private Path work;
    private HttpsServer issuerServer;
    private String issuer;
    private KeyPair signing;
    private TestPki pki;
    private KubelixServer server;
    private Kubectl kubectl;

    @BeforeAll
    void start() throws Exception {
        work = KubelixServer.workDirectory("oidc");
        pki = new TestPki(work.resolve("oidc-pki")).ca("oidc-ca");
        pki.server("issuer");
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        signing = rsa.generateKeyPair();

        issuerServer = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        issuerServer.setHttpsConfigurator(new HttpsConfigurator(pki.serverContext("issuer")));
        issuer = "https://127.0.0.1:" + issuerServer.getAddress().getPort() + "/dex";
        serve("/dex/.well-known/openid-configuration", "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer
                + "/keys\"}");
        RSAPublicKey pub = (RSAPublicKey) signing.getPublic();
        serve("/dex/keys", "{\"keys\":[{\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"kid\":\"k1\",\"n\":\""
                + unsigned(pub.getModulus()) + "\",\"e\":\"" + unsigned(pub.getPublicExponent()) + "\"}]}");
        issuerServer.start();

        server = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")), work,
                KubectlSuite.READY_TIMEOUT,
                "--oidc-issuer-url", issuer, "--oidc-client-id", "kubectl", "--oidc-ca-file",
                pki.dir().resolve("ca.crt").toString(), "--oidc-username-claim", "email",
                "--oidc-groups-claim", "groups", "--oidc-groups-prefix", "oidc:");
        kubectl = server.kubectl(work);
        server.awaitServed(kubectl, KubectlSuite.READY_TIMEOUT, "clusterrolebindings");
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (issuerServer != null) {
            issuerServer.stop(0);
        }
    }

    @Test
    void anIdTokenIsItsEmailInItsGroupsAndRbacDecides() throws Exception {
        String token = idToken("alice@example.com", "kubectl", Instant.now().plusSeconds(600));

        JsonNode user = JSON.readTree(kubectl.ok("--token=" + token, "auth", "whoami", "-o", "json").stdout())
                .path("status").path("userInfo");
        assertEquals("alice@example.com", user.path("username").asText(), user::toString);
        assertEquals(JSON.readTree("[\"oidc:devs\",\"system:authenticated\"]"), user.path("groups"), user::toString);

        Result forbidden = kubectl.run("--token=" + token, "get", "configmaps", "-n", "default");
        assertNotEquals(0, forbidden.exitCode(), forbidden::toString);
        assertTrue(forbidden.stderr().contains("configmaps is forbidden: User \"alice@example.com\" cannot list "
                + "resource \"configmaps\" in API group \"\" in the namespace \"default\""), forbidden::toString);

        kubectl.ok("create", "clusterrolebinding", "oidc-devs-view", "--clusterrole=view", "--group=oidc:devs");
        server.await("the group's binding applies", Duration.ofSeconds(30),
                () -> kubectl.run("--token=" + token, "get", "configmaps", "-n", "default"), r -> r.exitCode() == 0);
    }

    @Test
    void tokensThatDoNotVerifyAreUnauthorized() throws Exception {
        for (String token : List.of(
                idToken("alice@example.com", "kubectl", Instant.now().minusSeconds(5)),
                idToken("alice@example.com", "another-client", Instant.now().plusSeconds(600)))) {
            Result r = kubectl.run("--token=" + token, "get", "namespaces");
            assertNotEquals(0, r.exitCode(), r::toString);
            assertTrue(r.stderr().contains("Unauthorized") || r.stderr().contains("must be logged in"), r::toString);
        }
    }

    @Test
    void anAuthenticationConfigurationMapsClaimsWithCel() throws Exception {
        // A second server, configured by file as current kube-apiservers are, with CEL claim mappings.
        Path otherWork = KubelixServer.workDirectory("oidc-config");
        Path config = otherWork.resolve("authentication-config.yaml");
        java.nio.file.Files.writeString(config, "apiVersion: apiserver.config.k8s.io/v1\n"
                + "kind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: " + issuer + "\n"
                + "    audiences: [kubectl]\n    certificateAuthority: |\n"
                + java.nio.file.Files.readString(pki.dir().resolve("ca.crt")).indent(6)
                + "  claimMappings:\n"
                + "    username:\n      expression: \"'sso:' + claims.email\"\n"
                + "    groups:\n      expression: \"claims.groups.map(g, 'team:' + g)\"\n"
                + "  claimValidationRules:\n  - expression: claims.email_verified == true\n"
                + "    message: the email is not verified\n");
        try (KubelixServer configured = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")),
                otherWork, KubectlSuite.READY_TIMEOUT, "--authentication-config", config.toString())) {
            Kubectl k = configured.kubectl(otherWork);
            String token = idToken("bob@example.com", "kubectl", Instant.now().plusSeconds(600));
            Result whoami = configured.await("the issuer's keys are read", KubectlSuite.READY_TIMEOUT,
                    () -> k.run("--token=" + token, "auth", "whoami", "-o", "json"), r -> r.exitCode() == 0);
            JsonNode user = JSON.readTree(whoami.stdout()).path("status").path("userInfo");
            assertEquals("sso:bob@example.com", user.path("username").asText(), user::toString);
            assertEquals(JSON.readTree("[\"team:devs\",\"system:authenticated\"]"), user.path("groups"),
                    user::toString);
        }
    }

    private String idToken(String email, String audience, Instant expiry) throws Exception {
        ObjectNode claims = JSON.createObjectNode().put("iss", issuer).put("sub", "C1").put("aud", audience)
                .put("email", email).put("email_verified", true).put("iat", Instant.now().getEpochSecond())
                .put("exp", expiry.getEpochSecond());
        claims.putArray("groups").add("devs");
        String signingInput = B64.encodeToString("{\"alg\":\"RS256\",\"kid\":\"k1\",\"typ\":\"JWT\"}"
                .getBytes(StandardCharsets.UTF_8)) + "." + B64.encodeToString(JSON.writeValueAsBytes(claims));
        Signature rs256 = Signature.getInstance("SHA256withRSA");
        rs256.initSign(signing.getPrivate());
        rs256.update(signingInput.getBytes(StandardCharsets.US_ASCII));
        return signingInput + "." + B64.encodeToString(rs256.sign());
    }

    private void serve(String path, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        issuerServer.createContext(path, exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    /** A JWK integer: big-endian, no sign byte, base64url. */
    private static String unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes[0] == 0 && bytes.length > 1) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return B64.encodeToString(bytes);
    }
}
