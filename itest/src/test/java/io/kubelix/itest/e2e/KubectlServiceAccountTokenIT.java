package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Service account tokens in the full distribution, driven by the real kubectl: {@code kubectl create
 * token} through {@code serviceaccounts/token} (the authn-serviceaccount plugin signs), the token
 * used by kubectl as its credentials, a tampered token and one for another audience refused with
 * 401, kube's NotFound for a missing service account and 422 for a too short lifetime, a token bound
 * to a pod, the signing key the plugin wrote in the data directory, and the plugin taken out of
 * {@code plugins/} (no token issued nor accepted) and put back (its key, and so its tokens, kept), and
 * tokens refused once their service account or bound pod is deleted or recreated.
 * The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlServiceAccountTokenIT extends KubectlSuite {
    private static final String ISSUER = "https://kubernetes.default.svc.cluster.local";

    private String token;

    KubectlServiceAccountTokenIT() {
        super("serviceaccount-token", null);
    }

    @Test
    @Order(1)
    void createTokenIssuesAJwtForTheServiceAccount() throws Exception {
        assertEquals("serviceaccount/bot created", kubectl.ok("create", "serviceaccount", "bot").stdout().trim());
        // RBAC: the service account may read what the view role allows in its namespace.
        kubectl.ok("create", "rolebinding", "bot-view", "--clusterrole=view", "--serviceaccount=default:bot");
        token = await("kubectl create token bot", () -> kubectl.run("create", "token", "bot", "--duration=10m"),
                r -> r.exitCode() == 0).stdout().trim();

        String[] parts = token.split("\\.");
        assertEquals(3, parts.length, token);
        JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
        assertEquals("RS256", header.path("alg").asText(), header::toString);
        assertTrue(header.hasNonNull("kid"), header::toString);
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        assertEquals(ISSUER, claims.path("iss").asText(), claims::toString);
        assertEquals("system:serviceaccount:default:bot", claims.path("sub").asText(), claims::toString);
        JsonNode aud = claims.path("aud");
        assertEquals(ISSUER, aud.isArray() ? aud.get(0).asText() : aud.asText(), claims::toString);
        assertEquals(600, claims.path("exp").asLong() - claims.path("iat").asLong(), claims::toString);
        String uid = kubectl.ok("get", "serviceaccount", "bot", "-o", "jsonpath={.metadata.uid}").stdout().trim();
        JsonNode kubernetes = claims.path("kubernetes.io");
        assertEquals("default", kubernetes.path("namespace").asText(), claims::toString);
        assertEquals("bot", kubernetes.path("serviceaccount").path("name").asText(), claims::toString);
        assertEquals(uid, kubernetes.path("serviceaccount").path("uid").asText(), claims::toString);
    }

    @Test
    @Order(2)
    void theTokenAuthenticatesKubectl() throws Exception {
        kubectl.ok("create", "configmap", "seen", "--from-literal=a=b");
        Result list = await("the service account's binding applies", () -> kubectl.run("--token=" + token, "get",
                "configmaps", "-o", "name"), r -> r.exitCode() == 0);
        assertTrue(list.stdout().lines().anyMatch("configmap/seen"::equals), list::toString);
        Result version = kubectl.ok("--token=" + token, "get", "--raw", "/version");
        assertTrue(version.stdout().contains("\"gitVersion\""), version::toString);
        assertEquals(200, server.get("/api/v1/namespaces/default/configmaps", token).statusCode());
        // the admin's token from the token file still authenticates beside it
        assertEquals(0, kubectl.run("get", "configmaps").exitCode());
    }

    @Test
    @Order(3)
    void aTamperedTokenIsRefused() throws Exception {
        String[] parts = token.split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("system:serviceaccount:default:bot", "system:serviceaccount:default:admin");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertNotEquals(token, forged);
        assertUnauthorized(forged);
        String badSignature = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
        assertUnauthorized(badSignature);
    }

    @Test
    @Order(4)
    void aTokenForAnotherAudienceIsRefused() throws Exception {
        String vault = kubectl.ok("create", "token", "bot", "--audience=vault").stdout().trim();
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(vault.split("\\.")[1]));
        assertEquals("vault", claims.path("aud").isArray() ? claims.path("aud").get(0).asText()
                : claims.path("aud").asText(), claims::toString);
        assertUnauthorized(vault);
    }

    @Test
    @Order(5)
    void aMissingServiceAccountIsNotFound() throws Exception {
        Result r = kubectl.run("create", "token", "missing");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("serviceaccounts \"missing\" not found"), r::toString);
    }

    @Test
    @Order(6)
    void aLifetimeBelowTenMinutesIsInvalid() throws Exception {
        Result r = kubectl.run("create", "token", "bot", "--duration=1m");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: "
                + "Invalid value: 60: may not specify a duration less than 10 minutes"), r::toString);
    }

    @Test
    @Order(7)
    void aTokenBoundToAPodOfTheServiceAccount() throws Exception {
        kubectl.ok("run", "web", "--image=nginx", "--overrides={\"spec\":{\"serviceAccountName\":\"bot\"}}");
        String podUid = kubectl.ok("get", "pod", "web", "-o", "jsonpath={.metadata.uid}").stdout().trim();
        String bound = kubectl.ok("create", "token", "bot", "--bound-object-kind=Pod", "--bound-object-name=web")
                .stdout().trim();
        JsonNode pod = JSON.readTree(Base64.getUrlDecoder().decode(bound.split("\\.")[1])).path("kubernetes.io").path("pod");
        assertEquals("web", pod.path("name").asText(), pod::toString);
        assertEquals(podUid, pod.path("uid").asText(), pod::toString);
        assertEquals(0, kubectl.run("--token=" + bound, "get", "pods").exitCode());

        kubectl.ok("create", "serviceaccount", "other");
        Result other = kubectl.run("create", "token", "other", "--bound-object-kind=Pod", "--bound-object-name=web");
        assertEquals(1, other.exitCode(), other::toString);
        assertTrue(other.stderr().contains("cannot bind token for serviceaccount \"other\" to pod running with "
                + "different serviceaccount name."), other::toString);
    }

    @Test
    @Order(8)
    void theSubresourceIsDiscoveredAndTheKeyIsOwnerOnly() throws Exception {
        JsonNode v1 = JSON.readTree(kubectl.ok("get", "--raw", "/api/v1").stdout());
        JsonNode tokenResource = null;
        for (JsonNode r : v1.path("resources")) {
            if (r.path("name").asText().equals("serviceaccounts/token")) {
                tokenResource = r;
            }
        }
        assertTrue(tokenResource != null, v1::toString);
        assertEquals("TokenRequest", tokenResource.path("kind").asText(), tokenResource::toString);
        assertEquals("authentication.k8s.io", tokenResource.path("group").asText(), tokenResource::toString);
        assertEquals("[\"create\"]", tokenResource.path("verbs").toString());

        Path key = work.resolve("data").resolve("service-account.key");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        assertTrue(Files.readString(key).startsWith("-----BEGIN PRIVATE KEY-----"));
    }

    @Test
    @Order(9)
    void withoutThePluginNoTokenIsIssuedNorAcceptedAndBackItsKeyIsKept() throws Exception {
        // 1. out: serviceaccounts/token answers as a path that is not served, the tokens are refused
        Path aside = server.takePluginOut("authn-serviceaccount", work.resolve("aside"));
        Result refused = await("kubectl create token refused without the plugin",
                () -> kubectl.run("create", "token", "bot"), r -> r.exitCode() != 0);
        assertTrue(refused.stderr().contains("the server could not find the requested resource"), refused::toString);
        assertUnauthorized(token);
        kubectl.ok("get", "configmaps"); // the token file still authenticates the admin

        // 2. back: the key in the data directory is read again, so the token issued before still works
        server.putPluginBack(aside);
        await("kubectl create token works again", () -> kubectl.run("create", "token", "bot"), r -> r.exitCode() == 0);
        assertEquals(0, kubectl.run("--token=" + token, "get", "configmaps").exitCode());
    }

    @Test
    @Order(10)
    void everyNamespaceGetsADefaultServiceAccountThatComesBack() throws Exception {
        kubectl.ok("create", "namespace", "sa-defaults");
        await("service account default in a new namespace",
                () -> kubectl.run("-n", "sa-defaults", "get", "serviceaccount", "default"), r -> r.exitCode() == 0);
        Result token = kubectl.ok("-n", "sa-defaults", "create", "token", "default");
        assertEquals(3, token.stdout().trim().split("\\.").length, token::toString);

        String uid = kubectl.ok("-n", "sa-defaults", "get", "serviceaccount", "default", "-o", "jsonpath={.metadata.uid}")
                .stdout();
        kubectl.ok("-n", "sa-defaults", "delete", "serviceaccount", "default");
        await("service account default created again",
                () -> kubectl.run("-n", "sa-defaults", "get", "serviceaccount", "default", "-o", "jsonpath={.metadata.uid}"),
                r -> r.exitCode() == 0 && !r.stdout().isEmpty() && !r.stdout().equals(uid));
    }

    @Test
    @Order(11)
    void aTokenStopsAuthenticatingOnceItsServiceAccountOrBoundPodIsDeletedOrRecreated() throws Exception {
        kubectl.ok("create", "serviceaccount", "doomed");
        // RBAC: a binding by name, so it applies to the account recreated below too.
        kubectl.ok("create", "rolebinding", "doomed-view", "--clusterrole=view", "--serviceaccount=default:doomed");
        String doomed = kubectl.ok("create", "token", "doomed").stdout().trim();
        await("the service account's token accepted", () -> kubectl.run("--token=" + doomed, "get", "configmaps"),
                r -> r.exitCode() == 0);

        kubectl.ok("delete", "serviceaccount", "doomed");
        await("the deleted service account's token refused",
                () -> kubectl.run("--token=" + doomed, "get", "configmaps"), r -> r.exitCode() != 0);
        assertUnauthorized(doomed);

        // The same name again is another service account, with another uid: the old token stays refused.
        kubectl.ok("create", "serviceaccount", "doomed");
        String renewed = kubectl.ok("create", "token", "doomed").stdout().trim();
        await("the new service account's token accepted",
                () -> kubectl.run("--token=" + renewed, "get", "configmaps"), r -> r.exitCode() == 0);
        assertUnauthorized(doomed);

        // A token bound to a pod ends with the pod (web, bound to bot in an earlier step, is on no node).
        String bound = kubectl.ok("create", "token", "bot", "--bound-object-kind=Pod", "--bound-object-name=web")
                .stdout().trim();
        assertEquals(0, kubectl.run("--token=" + bound, "get", "configmaps").exitCode());
        kubectl.ok("delete", "pod", "web");
        await("the deleted pod's token refused",
                () -> kubectl.run("--token=" + bound, "get", "configmaps"), r -> r.exitCode() != 0);
        assertUnauthorized(bound);
        assertEquals(0, kubectl.run("--token=" + token, "get", "configmaps").exitCode(),
                "an unbound token of the same service account still works");
    }

    private void assertUnauthorized(String credential) throws Exception {
        Result r = kubectl.run("--token=" + credential, "get", "configmaps");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Unauthorized"), r::toString);
        assertEquals(401, server.get("/api/v1/namespaces/default/configmaps", credential).statusCode());
    }
}
