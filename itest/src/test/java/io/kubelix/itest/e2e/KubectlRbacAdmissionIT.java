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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rbac.authorization.k8s.io/v1 (resource-rbac) and admissionregistration.k8s.io/v1
 * (resource-admissionregistration) plugins in the built distribution, driven by the real kubectl:
 * kube's bootstrap cluster roles and bindings, {@code kubectl create role|rolebinding|clusterrole|
 * clusterrolebinding}, kube's columns, {@code apply} twice, {@code explain}, kube's 422s, webhook
 * configurations and admission policies with kube's defaults, {@code api-resources}, delete. The
 * methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlRbacAdmissionIT extends KubectlSuite {
    private static final String TIMESTAMP = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ";

    KubectlRbacAdmissionIT() {
        super("rbac", null);
    }

    @Override
    void afterStart() throws Exception {
        // /readyz can answer before every plugin is in and the bootstrap policy is written
        await("the last bootstrap binding", () -> kubectl.run("get", "clusterrolebinding", "system:public-info-viewer"),
                r -> r.exitCode() == 0);
        await("admission policies served", () -> kubectl.run("get", "validatingadmissionpolicies"), r -> r.exitCode() == 0);
    }

    @Test
    @Order(1)
    void kubesDefaultClusterRolesAndBindingsAreBootstrapped() throws Exception {
        List<String> roles = kubectl.ok("get", "clusterroles").stdout().lines().toList();
        assertTrue(roles.get(0).matches("NAME\\s+CREATED AT"), roles::toString);
        for (String name : List.of("admin", "cluster-admin", "edit", "view", "system:basic-user", "system:discovery",
                "system:public-info-viewer", "system:auth-delegator", "system:node-bootstrapper",
                "system:certificates.k8s.io:kube-apiserver-client-approver")) {
            assertTrue(roles.stream().anyMatch(l -> l.matches(name + "\\s+" + TIMESTAMP)), name + " in " + roles);
        }

        JsonNode view = JSON.readTree(kubectl.ok("get", "clusterrole", "view", "-o", "json").stdout());
        assertEquals("rbac-defaults", view.path("metadata").path("labels").path("kubernetes.io/bootstrapping").asText(), view::toString);
        assertEquals("true", view.path("metadata").path("annotations").path("rbac.authorization.kubernetes.io/autoupdate").asText());
        assertEquals("true", view.path("aggregationRule").path("clusterRoleSelectors").path(0).path("matchLabels")
                .path("rbac.authorization.k8s.io/aggregate-to-view").asText(), view::toString);
        assertTrue(view.path("rules").toString().contains("\"pods\""), "view's aggregated rules: " + view);

        List<String> bindings = kubectl.ok("get", "clusterrolebindings", "-o", "wide").stdout().lines().toList();
        assertTrue(bindings.get(0).matches("NAME\\s+ROLE\\s+AGE\\s+USERS\\s+GROUPS\\s+SERVICEACCOUNTS"), bindings::toString);
        assertTrue(bindings.stream().anyMatch(l -> l.matches("cluster-admin\\s+ClusterRole/cluster-admin\\s+\\S+\\s+system:masters\\s*")),
                bindings::toString);
        assertTrue(bindings.stream().anyMatch(l -> l.matches("system:public-info-viewer\\s+ClusterRole/system:public-info-viewer"
                + "\\s+\\S+\\s+system:authenticated, system:unauthenticated\\s*")), bindings::toString);
    }

    @Test
    @Order(2)
    void kubectlCreatesRolesAndBindings() throws Exception {
        assertEquals("role.rbac.authorization.k8s.io/pod-reader created",
                kubectl.ok("create", "role", "pod-reader", "--verb=get,list,watch", "--resource=configmaps").stdout().trim());
        assertEquals("rolebinding.rbac.authorization.k8s.io/read-pods created", kubectl.ok("create", "rolebinding", "read-pods",
                "--role=pod-reader", "--user=jane", "--serviceaccount=default:robot").stdout().trim());
        assertEquals("clusterrole.rbac.authorization.k8s.io/log-reader created", kubectl.ok("create", "clusterrole",
                "log-reader", "--verb=get", "--non-resource-url=/logs/*").stdout().trim());
        assertEquals("clusterrolebinding.rbac.authorization.k8s.io/devs-read-logs created", kubectl.ok("create",
                "clusterrolebinding", "devs-read-logs", "--clusterrole=log-reader", "--group=devs").stdout().trim());

        List<String> roles = kubectl.ok("get", "roles").stdout().lines().toList();
        assertTrue(roles.get(0).matches("NAME\\s+CREATED AT"), roles::toString);
        assertTrue(roles.get(1).matches("pod-reader\\s+" + TIMESTAMP), roles::toString);

        List<String> bindings = kubectl.ok("get", "rolebindings", "-o", "wide").stdout().lines().toList();
        assertTrue(bindings.get(0).matches("NAME\\s+ROLE\\s+AGE\\s+USERS\\s+GROUPS\\s+SERVICEACCOUNTS"), bindings::toString);
        assertTrue(bindings.get(1).matches("read-pods\\s+Role/pod-reader\\s+\\d+s\\s+jane\\s+default/robot\\s*"), bindings::toString);
        assertTrue(kubectl.ok("get", "clusterrolebinding", "devs-read-logs").stdout().lines()
                .anyMatch(l -> l.matches("devs-read-logs\\s+ClusterRole/log-reader\\s+\\d+s")));

        JsonNode binding = JSON.readTree(kubectl.ok("get", "rolebinding", "read-pods", "-o", "json").stdout());
        assertEquals("rbac.authorization.k8s.io", binding.path("roleRef").path("apiGroup").asText(), binding::toString);
        assertEquals("rbac.authorization.k8s.io", binding.path("subjects").path(0).path("apiGroup").asText(), binding::toString);
    }

    @Test
    @Order(3)
    void applyTwiceThenARoleRefChangeIsRefused() throws Exception {
        Path file = work.resolve("binding.yaml");
        String binding = "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: viewers\n"
                + "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: ROLE\nsubjects:\n"
                + "- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: bob\n";
        Files.writeString(file, binding.replace("ROLE", "view"), StandardCharsets.UTF_8);
        assertEquals("rolebinding.rbac.authorization.k8s.io/viewers created", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertEquals("rolebinding.rbac.authorization.k8s.io/viewers unchanged", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        Files.writeString(file, binding.replace("ROLE", "view") + "- kind: ServiceAccount\n  name: ci\n  namespace: default\n",
                StandardCharsets.UTF_8);
        assertEquals("rolebinding.rbac.authorization.k8s.io/viewers configured", kubectl.ok("apply", "-f", file.toString()).stdout().trim());

        Files.writeString(file, binding.replace("ROLE", "edit"), StandardCharsets.UTF_8);
        Result changed = kubectl.run("apply", "-f", file.toString());
        assertNotEquals(0, changed.exitCode(), changed::toString);
        assertTrue(changed.stderr().contains("The RoleBinding \"viewers\" is invalid: roleRef: Invalid value: rbac.RoleRef{"
                + "APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef"), changed::toString);
    }

    @Test
    @Order(4)
    void badRulesAre422WithKubesMessages() throws Exception {
        Path file = work.resolve("role.yaml");
        Files.writeString(file, "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: urls\nrules:\n"
                + "- nonResourceURLs: [\"/healthz\"]\n  verbs: [get]\n- apiGroups: [\"\"]\n  resources: [pods]\n", StandardCharsets.UTF_8);
        Result r = kubectl.run("create", "-f", file.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The Role \"urls\" is invalid"), r::toString);
        assertTrue(r.stderr().contains("rules[0].nonResourceURLs: Invalid value: []string{\"/healthz\"}: namespaced rules "
                + "cannot apply to non-resource URLs"), r::toString);
        assertTrue(r.stderr().contains("rules[1].verbs: Required value: verbs must contain at least one value"), r::toString);

        Files.writeString(file, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: robots\n"
                + "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: view\nsubjects:\n"
                + "- kind: ServiceAccount\n  name: robot\n", StandardCharsets.UTF_8);
        Result binding = kubectl.run("create", "-f", file.toString());
        assertNotEquals(0, binding.exitCode(), binding::toString);
        assertTrue(binding.stderr().contains("The ClusterRoleBinding \"robots\" is invalid: subjects[0].namespace: Required value"),
                binding::toString);
    }

    @Test
    @Order(5)
    void webhookConfigurationsGetKubesDefaults() throws Exception {
        Path file = work.resolve("webhook.yaml");
        String config = "apiVersion: admissionregistration.k8s.io/v1\nkind: KIND\nmetadata:\n  name: pod-policy\nwebhooks:\n"
                + "- name: pod-policy.example.com\n  admissionReviewVersions: [v1]\nSIDE_EFFECTS"
                + "  clientConfig:\n    service:\n      namespace: default\n      name: webhook\n"
                + "  rules:\n  - operations: [CREATE]\n    apiGroups: [\"\"]\n    apiVersions: [v1]\n    resources: [pods]\n"
                // rules is an atomic list: without its defaulted scope a second apply would replace it (configured)
                + "    scope: \"*\"\n";
        Files.writeString(file, config.replace("KIND", "ValidatingWebhookConfiguration").replace("SIDE_EFFECTS", "  sideEffects: None\n"),
                StandardCharsets.UTF_8);
        assertEquals("validatingwebhookconfiguration.admissionregistration.k8s.io/pod-policy created",
                kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertEquals("validatingwebhookconfiguration.admissionregistration.k8s.io/pod-policy unchanged",
                kubectl.ok("apply", "-f", file.toString()).stdout().trim());

        List<String> lines = kubectl.ok("get", "validatingwebhookconfigurations").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+WEBHOOKS\\s+AGE"), lines::toString);
        assertTrue(lines.stream().anyMatch(l -> l.matches("pod-policy\\s+1\\s+\\d+s")), lines::toString);

        JsonNode hook = JSON.readTree(kubectl.ok("get", "validatingwebhookconfiguration", "pod-policy", "-o", "json").stdout())
                .path("webhooks").path(0);
        assertEquals("Fail", hook.path("failurePolicy").asText(), hook::toString);
        assertEquals("Equivalent", hook.path("matchPolicy").asText(), hook::toString);
        assertEquals(10, hook.path("timeoutSeconds").asInt(), hook::toString);
        assertTrue(hook.path("namespaceSelector").isObject() && hook.path("namespaceSelector").isEmpty(), hook::toString);
        assertTrue(hook.path("objectSelector").isObject() && hook.path("objectSelector").isEmpty(), hook::toString);
        assertEquals(443, hook.path("clientConfig").path("service").path("port").asInt(), hook::toString);
        assertEquals("*", hook.path("rules").path(0).path("scope").asText(), hook::toString);

        Files.writeString(file, config.replace("KIND", "MutatingWebhookConfiguration").replace("SIDE_EFFECTS", ""),
                StandardCharsets.UTF_8);
        Result missing = kubectl.run("apply", "-f", file.toString());
        assertNotEquals(0, missing.exitCode(), missing::toString);
        assertTrue(missing.stderr().contains("The MutatingWebhookConfiguration \"pod-policy\" is invalid: "
                + "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun"), missing::toString);

        Files.writeString(file, config.replace("KIND", "MutatingWebhookConfiguration").replace("SIDE_EFFECTS", "  sideEffects: None\n"),
                StandardCharsets.UTF_8);
        kubectl.ok("apply", "-f", file.toString());
        JsonNode mutating = JSON.readTree(kubectl.ok("get", "mutatingwebhookconfiguration", "pod-policy", "-o", "json").stdout());
        assertEquals("Never", mutating.path("webhooks").path(0).path("reinvocationPolicy").asText(), mutating::toString);
    }

    @Test
    @Order(6)
    void admissionPoliciesAndBindings() throws Exception {
        Path file = work.resolve("policy.yaml");
        Files.writeString(file, "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n"
                + "  name: replica-limit\nspec:\n  paramKind:\n    apiVersion: v1\n    kind: ConfigMap\n  matchConstraints:\n"
                + "    resourceRules:\n    - apiGroups: [apps]\n      apiVersions: [v1]\n      operations: [CREATE, UPDATE]\n"
                + "      resources: [deployments]\n  validations:\n  - expression: \"object.spec.replicas <= 5\"\n---\n"
                + "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n"
                + "  name: replica-limit-test\nspec:\n  policyName: replica-limit\n  validationActions: [Deny]\n"
                + "  paramRef:\n    name: limits\n    namespace: default\n", StandardCharsets.UTF_8);
        Result created = kubectl.ok("apply", "-f", file.toString());
        assertTrue(created.stdout().contains("validatingadmissionpolicy.admissionregistration.k8s.io/replica-limit created"), created::toString);
        Result again = kubectl.ok("apply", "-f", file.toString());
        assertTrue(again.stdout().contains("validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limit-test unchanged"),
                again::toString);

        List<String> policies = kubectl.ok("get", "validatingadmissionpolicies").stdout().lines().toList();
        assertTrue(policies.get(0).matches("NAME\\s+VALIDATIONS\\s+PARAMKIND\\s+AGE"), policies::toString);
        assertTrue(policies.get(1).matches("replica-limit\\s+1\\s+v1/ConfigMap\\s+\\d+s"), policies::toString);
        List<String> bindings = kubectl.ok("get", "validatingadmissionpolicybindings").stdout().lines().toList();
        assertTrue(bindings.get(0).matches("NAME\\s+POLICYNAME\\s+PARAMREF\\s+AGE"), bindings::toString);
        assertTrue(bindings.get(1).matches("replica-limit-test\\s+replica-limit\\s+default/limits\\s+\\d+s"), bindings::toString);

        JsonNode policy = JSON.readTree(kubectl.ok("get", "validatingadmissionpolicy", "replica-limit", "-o", "json").stdout());
        assertEquals("Fail", policy.path("spec").path("failurePolicy").asText(), policy::toString);
        assertEquals("Equivalent", policy.path("spec").path("matchConstraints").path("matchPolicy").asText(), policy::toString);
        assertEquals(1, policy.path("metadata").path("generation").asInt(), policy::toString);

        Path bad = work.resolve("bad-binding.yaml");
        Files.writeString(bad, "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n"
                + "  name: noisy\nspec:\n  policyName: replica-limit\n  validationActions: [Deny, Warn]\n", StandardCharsets.UTF_8);
        Result noisy = kubectl.run("apply", "-f", bad.toString());
        assertNotEquals(0, noisy.exitCode(), noisy::toString);
        assertTrue(noisy.stderr().contains("spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"
                + "\"Deny\", \"Warn\"}: must not contain both Deny and Warn"), noisy::toString);
    }

    @Test
    @Order(7)
    void explainAndApiResources() throws Exception {
        String aggregation = kubectl.ok("explain", "clusterrole.aggregationRule").stdout();
        assertTrue(aggregation.contains("clusterRoleSelectors"), aggregation);
        String sideEffects = kubectl.ok("explain", "validatingwebhookconfiguration.webhooks.sideEffects").stdout();
        assertTrue(sideEffects.contains("NoneOnDryRun"), sideEffects);

        String rbac = kubectl.ok("api-resources", "--api-group=rbac.authorization.k8s.io").stdout();
        for (String row : List.of("clusterrolebindings\\s+rbac.authorization.k8s.io/v1\\s+false\\s+ClusterRoleBinding",
                "clusterroles\\s+rbac.authorization.k8s.io/v1\\s+false\\s+ClusterRole",
                "rolebindings\\s+rbac.authorization.k8s.io/v1\\s+true\\s+RoleBinding",
                "roles\\s+rbac.authorization.k8s.io/v1\\s+true\\s+Role")) {
            assertTrue(rbac.lines().anyMatch(l -> l.matches(row)), row + " in\n" + rbac);
        }
        String admission = kubectl.ok("api-resources", "--api-group=admissionregistration.k8s.io").stdout();
        for (String row : List.of("mutatingwebhookconfigurations\\s+admissionregistration.k8s.io/v1\\s+false\\s+MutatingWebhookConfiguration",
                "validatingadmissionpolicies\\s+admissionregistration.k8s.io/v1\\s+false\\s+ValidatingAdmissionPolicy",
                "validatingadmissionpolicybindings\\s+admissionregistration.k8s.io/v1\\s+false\\s+ValidatingAdmissionPolicyBinding",
                "validatingwebhookconfigurations\\s+admissionregistration.k8s.io/v1\\s+false\\s+ValidatingWebhookConfiguration")) {
            assertTrue(admission.lines().anyMatch(l -> l.matches(row)), row + " in\n" + admission);
        }
    }

    @Test
    @Order(8)
    void deleteRemovesThem() throws Exception {
        assertEquals("rolebinding.rbac.authorization.k8s.io \"read-pods\" deleted",
                kubectl.ok("delete", "rolebinding", "read-pods").stdout().trim());
        assertEquals("role.rbac.authorization.k8s.io \"pod-reader\" deleted", kubectl.ok("delete", "role", "pod-reader").stdout().trim());
        kubectl.ok("delete", "validatingadmissionpolicybinding", "replica-limit-test");
        kubectl.ok("delete", "validatingadmissionpolicy", "replica-limit");
        kubectl.ok("delete", "validatingwebhookconfiguration", "pod-policy");

        assertTrue(kubectl.run("get", "role", "pod-reader").stderr().contains("NotFound"));
        assertTrue(kubectl.run("get", "validatingadmissionpolicy", "replica-limit").stderr().contains("NotFound"));
        assertEquals("", kubectl.ok("get", "validatingwebhookconfigurations", "-o", "name").stdout().trim());
    }

    @Test
    @Order(9)
    void aggregatedRolesDescribeAndAuthReconcile() throws Exception {
        assertEquals("clusterrole.rbac.authorization.k8s.io/monitoring created", kubectl.ok("create", "clusterrole", "monitoring",
                "--aggregation-rule=rbac.example.com/aggregate-to-monitoring=true").stdout().trim());
        JsonNode monitoring = JSON.readTree(kubectl.ok("get", "clusterrole", "monitoring", "-o", "json").stdout());
        assertEquals("true", monitoring.path("aggregationRule").path("clusterRoleSelectors").path(0).path("matchLabels")
                .path("rbac.example.com/aggregate-to-monitoring").asText(), monitoring::toString);

        String describe = kubectl.ok("describe", "clusterrole", "system:discovery").stdout();
        assertTrue(describe.contains("kubernetes.io/bootstrapping=rbac-defaults"), describe);
        assertTrue(describe.contains("[/healthz]"), describe);

        Path file = work.resolve("reconcile.yaml");
        Files.writeString(file, "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: secret-reader\n"
                + "  namespace: default\nrules:\n- apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [get]\n", StandardCharsets.UTF_8);
        kubectl.ok("auth", "reconcile", "-f", file.toString());
        Files.writeString(file, Files.readString(file).replace("verbs: [get]", "verbs: [get, list]"), StandardCharsets.UTF_8);
        kubectl.ok("auth", "reconcile", "-f", file.toString());
        JsonNode role = JSON.readTree(kubectl.ok("get", "role", "secret-reader", "-o", "json").stdout());
        assertTrue(role.path("rules").toString().contains("\"list\""), role::toString);
    }
}
