package io.kubelix.itest.e2e;

import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;

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
        Result list = kubectl.ok("--token=" + token, "-n", NS, "auth", "can-i", "--list");
        assertTrue(list.stdout().lines().anyMatch(l -> l.matches("configmaps\\s+\\[]\\s+\\[]\\s+\\[get list]")),
                list::toString);
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
}
