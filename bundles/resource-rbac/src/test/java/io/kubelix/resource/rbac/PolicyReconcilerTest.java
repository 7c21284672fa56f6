package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.testing.store.MapStore;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static io.kubelix.resource.rbac.Fixtures.MAPPER;
import static io.kubelix.resource.rbac.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PolicyReconcilerTest {
    private final MapStore roles = new MapStore(RbacRESTStorageProvider.clusterRoleSpec());
    private final MapStore bindings = new MapStore(RbacRESTStorageProvider.clusterRoleBindingSpec());
    private final MapStore namespaceRoles = new MapStore(RbacRESTStorageProvider.roleSpec());
    private final MapStore namespaceBindings = new MapStore(RbacRESTStorageProvider.roleBindingSpec());
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final PolicyReconciler reconciler = new PolicyReconciler(BootstrapPolicy.load(MAPPER), roles, bindings,
            namespaceRoles, namespaceBindings, executor);

    @Test
    void createsKubesDefaultRolesAndBindingsOnce() {
        assertTrue(reconciler.ensure());
        for (String name : List.of("cluster-admin", "admin", "edit", "view", "system:discovery", "system:basic-user",
                "system:public-info-viewer", "system:monitoring", "system:aggregate-to-view")) {
            ObjectNode role = roles.objects.get(name);
            assertEquals("rbac-defaults", role.path("metadata").path("labels").path("kubernetes.io/bootstrapping").asText(), name);
            assertEquals("true", role.path("metadata").path("annotations")
                    .path("rbac.authorization.kubernetes.io/autoupdate").asText(), name);
        }
        assertEquals("system:masters", bindings.objects.get("cluster-admin").path("subjects").path(0).path("name").asText());
        assertEquals(List.of("system:authenticated", "system:unauthenticated"),
                bindings.objects.get("system:public-info-viewer").path("subjects").findValuesAsText("name"));
        assertEquals(List.of("system:monitoring"),
                bindings.objects.get("system:monitoring").path("subjects").findValuesAsText("name"));

        int writes = roles.writes.size() + bindings.writes.size();
        assertTrue(reconciler.ensure());
        assertEquals(writes, roles.writes.size() + bindings.writes.size(), "a second start writes nothing");
    }

    @Test
    void kubesRolesForComponentsAndCertificateApproversAreThere() {
        assertTrue(reconciler.ensure());
        // Extension API servers (metrics-server, sample-apiserver) bind system:auth-delegator to review tokens.
        assertTrue(PolicyRules.covered(roles.objects.get("system:auth-delegator").path("rules"),
                json("{'apiGroups':['authentication.k8s.io'],'resources':['tokenreviews'],'verbs':['create']}")));
        // An approver of kube-apiserver-client CSRs needs `approve` on that signer and on no other.
        JsonNode approver = roles.objects.get("system:certificates.k8s.io:kube-apiserver-client-approver").path("rules");
        assertTrue(PolicyRules.covered(approver, json("{'apiGroups':['certificates.k8s.io'],'resources':['signers'],"
                + "'resourceNames':['kubernetes.io/kube-apiserver-client'],'verbs':['approve']}")));
        assertFalse(PolicyRules.covered(approver, json("{'apiGroups':['certificates.k8s.io'],'resources':['signers'],"
                + "'resourceNames':['kubernetes.io/kubelet-serving'],'verbs':['approve']}")));
        for (String name : List.of("system:node-bootstrapper", "system:node", "system:kube-scheduler",
                "system:kube-controller-manager", "system:volume-scheduler", "system:service-account-issuer-discovery",
                "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
                "system:certificates.k8s.io:legacy-unknown-approver")) {
            assertTrue(roles.objects.containsKey(name), name);
        }
        assertEquals(List.of("system:kube-scheduler"),
                bindings.objects.get("system:volume-scheduler").path("subjects").findValuesAsText("name"));
        assertEquals(List.of("system:serviceaccounts"),
                bindings.objects.get("system:service-account-issuer-discovery").path("subjects").findValuesAsText("name"));
        // As kube's: the Node authorizer, not this binding, gives nodes their access.
        assertFalse(bindings.objects.get("system:node").has("subjects"));
    }

    @Test
    void extensionServersMayReadTheAuthenticationConfigMapOfKubeSystem() {
        assertTrue(reconciler.ensure());
        ObjectNode reader = namespaceRoles.objects.get("extension-apiserver-authentication-reader");
        assertEquals("kube-system", reader.path("metadata").path("namespace").asText());
        assertEquals("Role", reader.path("kind").asText());
        assertTrue(PolicyRules.covered(reader.path("rules"), json("{'apiGroups':[''],'resources':['configmaps'],"
                + "'resourceNames':['extension-apiserver-authentication'],'verbs':['get','list','watch']}")));
        assertFalse(PolicyRules.covered(reader.path("rules"), json("{'apiGroups':[''],'resources':['configmaps'],"
                + "'verbs':['list']}")), "only that ConfigMap");
        ObjectNode binding = namespaceBindings.objects.get("system::extension-apiserver-authentication-reader");
        assertEquals("kube-system", binding.path("metadata").path("namespace").asText());
        assertEquals("Role/extension-apiserver-authentication-reader", binding.path("roleRef").path("kind").asText()
                + "/" + binding.path("roleRef").path("name").asText());
        assertEquals(List.of("system:kube-controller-manager", "system:kube-scheduler"),
                binding.path("subjects").findValuesAsText("name"));
    }

    @Test
    void aggregatedRolesCarryTheRulesOfTheRolesTheySelect() {
        assertTrue(reconciler.ensure());
        JsonNode view = roles.objects.get("view").path("rules");
        JsonNode edit = roles.objects.get("edit").path("rules");
        JsonNode admin = roles.objects.get("admin").path("rules");
        assertEquals(roles.objects.get("system:aggregate-to-view").path("rules"), view);
        assertTrue(PolicyRules.uncovered(edit, view).isEmpty(), "edit grants everything view does");
        assertTrue(PolicyRules.uncovered(admin, edit).isEmpty(), "admin grants everything edit does");
        assertFalse(PolicyRules.uncovered(view, edit).isEmpty(), "view does not grant edit's writes");
        assertTrue(PolicyRules.covered(admin, json("{'apiGroups':['rbac.authorization.k8s.io'],'resources':['roles'],"
                + "'verbs':['create']}")));
    }

    @Test
    void addsWhatIsMissingAndKeepsUsersAdditions() {
        assertTrue(reconciler.ensure());
        ObjectNode view = roles.objects.get("view");
        view.withArray("rules").remove(0);
        view.withArray("rules").add(json("{'apiGroups':['example.com'],'resources':['widgets'],'verbs':['get']}"));
        ObjectNode binding = bindings.objects.get("system:discovery");
        binding.withArray("subjects").add(json("{'apiGroup':'rbac.authorization.k8s.io','kind':'User','name':'bob'}"));
        binding.withArray("subjects").remove(0);

        assertTrue(reconciler.ensure());
        JsonNode rules = roles.objects.get("view").path("rules");
        assertTrue(PolicyRules.uncovered(rules, roles.objects.get("system:aggregate-to-view").path("rules")).isEmpty());
        assertTrue(rules.toString().contains("widgets"), rules::toString);
        JsonNode subjects = bindings.objects.get("system:discovery").path("subjects");
        assertEquals(List.of("bob", "system:authenticated"), subjects.findValuesAsText("name"));
    }

    @Test
    void leavesAloneWhatIsAnnotatedAutoupdateFalse() {
        assertTrue(reconciler.ensure());
        ObjectNode edit = roles.objects.get("edit");
        edit.withObject("/metadata/annotations").put("rbac.authorization.kubernetes.io/autoupdate", "false");
        edit.putArray("rules");
        roles.writes.clear();

        assertTrue(reconciler.ensure());
        assertEquals(List.of(), roles.writes);
        assertTrue(roles.objects.get("edit").path("rules").isEmpty());
    }

    @Test
    void recreatesABindingWhoseRoleRefWasReplaced() {
        assertTrue(reconciler.ensure());
        bindings.objects.get("system:basic-user").withObject("/roleRef").put("name", "view");
        bindings.writes.clear();

        assertTrue(reconciler.ensure());
        assertEquals(List.of("delete system:basic-user", "create system:basic-user"), bindings.writes);
        assertEquals("system:basic-user", bindings.objects.get("system:basic-user").path("roleRef").path("name").asText());
    }

    @Test
    void retriesUntilStorageAnswers() throws InterruptedException {
        roles.unavailable.set(3);
        assertFalse(reconciler.ensure());
        reconciler.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        int expected = BootstrapPolicy.load(MAPPER).clusterRoleBindings().size();
        while (bindings.objects.size() < expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        reconciler.stop();
        executor.shutdownNow();
        assertEquals(expected, bindings.objects.size());
    }
}
