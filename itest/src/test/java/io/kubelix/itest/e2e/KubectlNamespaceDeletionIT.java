package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The namespace controller in the full distribution, driven by the real kubectl: a namespace holding
 * objects of a dozen resources across six API groups, one of them held by a finalizer, is deleted:
 * it turns Terminating, refuses new content, loses everything but the held object, and reports
 * kube's conditions (what remains, which finalizer holds it); once the finalizer is removed the
 * namespace is gone.
 */
class KubectlNamespaceDeletionIT extends KubectlSuite {

    KubectlNamespaceDeletionIT() {
        super("namespace-deletion", null);
    }

    @Test
    void aDeletedNamespaceIsEmptiedReportsItsConditionsAndGoesOnceTheFinalizerIsRemoved() throws Exception {
        kubectl.ok("create", "namespace", "doomed");
        List<List<String>> creates = List.of(
                List.of("create", "configmap", "cm", "--from-literal=a=b"),
                List.of("create", "secret", "generic", "s", "--from-literal=a=b"),
                List.of("create", "serviceaccount", "sa"),
                List.of("create", "service", "clusterip", "svc", "--tcp=80:8080"),
                List.of("create", "deployment", "web", "--image=nginx"),
                List.of("create", "job", "j", "--image=busybox"),
                List.of("create", "cronjob", "cj", "--image=busybox", "--schedule=*/5 * * * *"),
                List.of("create", "role", "r", "--verb=get", "--resource=pods"),
                List.of("create", "rolebinding", "rb", "--role=r", "--user=alice"),
                List.of("create", "poddisruptionbudget", "pdb", "--selector=app=web", "--min-available=1"),
                List.of("create", "quota", "q", "--hard=pods=10"),
                List.of("create", "configmap", "held", "--from-literal=a=b"));
        for (List<String> create : creates) {
            List<String> args = new java.util.ArrayList<>(List.of("-n", "doomed"));
            args.addAll(create);
            kubectl.ok(args.toArray(String[]::new));
        }
        kubectl.ok("-n", "doomed", "patch", "configmap", "held", "--type=merge",
                "-p", "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}");

        kubectl.ok("delete", "namespace", "doomed", "--wait=false");
        JsonNode ns = JSON.readTree(await("namespace doomed reports what remains",
                () -> kubectl.run("get", "namespace", "doomed", "-o", "json"),
                r -> r.exitCode() == 0 && r.stdout().contains("\"SomeFinalizersRemain\"")).stdout());
        assertEquals("Terminating", ns.path("status").path("phase").asText(), ns::toString);
        JsonNode remaining = condition(ns, "NamespaceContentRemaining");
        assertEquals("True", remaining.path("status").asText(), ns::toString);
        assertEquals("SomeResourcesRemain", remaining.path("reason").asText(), ns::toString);
        assertEquals("Some resources are remaining: configmaps. has 1 resource instances",
                remaining.path("message").asText(), ns::toString);
        JsonNode finalizers = condition(ns, "NamespaceFinalizersRemaining");
        assertEquals("Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
                finalizers.path("message").asText(), ns::toString);
        JsonNode failure = condition(ns, "NamespaceDeletionContentFailure");
        assertEquals("False", failure.path("status").asText(), ns::toString);
        assertEquals("ContentDeleted", failure.path("reason").asText(), ns::toString);

        Result left = kubectl.ok("-n", "doomed", "get",
                "configmaps,secrets,serviceaccounts,services,deployments,jobs,cronjobs,roles,rolebindings,"
                        + "poddisruptionbudgets,resourcequotas", "-o", "name");
        assertEquals(List.of("configmap/held"), left.stdout().lines().toList(), left::toString);
        Result refused = kubectl.run("-n", "doomed", "create", "configmap", "late");
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.stderr().contains("because it is being terminated"), refused::toString);

        kubectl.ok("-n", "doomed", "patch", "configmap", "held", "--type=json",
                "-p", "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]");
        Result gone = await("namespace doomed gone", () -> kubectl.run("get", "namespace", "doomed"),
                r -> r.exitCode() != 0);
        assertTrue(gone.stderr().contains("namespaces \"doomed\" not found"), gone::toString);
    }

    private static JsonNode condition(JsonNode ns, String type) {
        for (JsonNode c : ns.path("status").path("conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        throw new AssertionError("no condition " + type + " in " + ns);
    }
}
