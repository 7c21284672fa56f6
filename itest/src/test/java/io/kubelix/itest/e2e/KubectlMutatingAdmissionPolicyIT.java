package io.kubelix.itest.e2e;

import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MutatingAdmissionPolicy ({@code admissionregistration.k8s.io/v1beta1}) in the default distribution,
 * driven by the real kubectl: an ApplyConfiguration sets a deployment's replicas, a template label and
 * a container's env (merged by the containers' and env's keys, so the image stays), a JSONPatch labels
 * configmaps through {@code jsonpatch.escapeKey}, a policy takes a value from its binding's param, and
 * an expression that fails refuses the write with kube's message under {@code failurePolicy: Fail}
 * and lets it through unchanged under {@code Ignore}. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlMutatingAdmissionPolicyIT extends KubectlSuite {

    KubectlMutatingAdmissionPolicyIT() {
        super("mutating-admission-policy", "mutatingadmissionpolicies,mutatingadmissionpolicybindings");
    }

    @Test
    @Order(1)
    void anApplyConfigurationMergesIntoADeployment() throws Exception {
        kubectl.ok("create", "namespace", "map");
        kubectl.ok("apply", "-f", write("deployment-defaults.yaml", """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: deployment-defaults}
                spec:
                  reinvocationPolicy: IfNeeded
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [apps]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [deployments]
                  mutations:
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: >
                        Object{spec: Object.spec{replicas: 3,
                          template: Object.spec.template{
                            metadata: Object.spec.template.metadata{labels: {"mutated-by": "deployment-defaults"}},
                            spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{
                              name: object.spec.template.spec.containers[0].name,
                              env: [Object.spec.template.spec.containers.env{name: "MUTATED", value: "yes"}]}]}}}}
                ---
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: deployment-defaults}
                spec:
                  policyName: deployment-defaults
                  matchResources:
                    namespaceSelector:
                      matchLabels: {kubernetes.io/metadata.name: map}
                """).toString());
        assertEquals("Fail", kubectl.ok("get", "mutatingadmissionpolicy", "deployment-defaults", "-o",
                "jsonpath={.spec.failurePolicy}").stdout().trim(), "kube's default failure policy");

        await("the policy's mutation", () -> created("deployment", "web", "{.spec.replicas}", "--image=nginx:1.27"),
                "3"::equals);
        assertEquals("deployment-defaults", kubectl.ok("get", "deployment", "web", "-n", "map", "-o",
                "jsonpath={.spec.template.metadata.labels.mutated-by}").stdout().trim());
        assertEquals("nginx:1.27 MUTATED=yes", kubectl.ok("get", "deployment", "web", "-n", "map", "-o",
                "jsonpath={.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].env[0].name}="
                        + "{.spec.template.spec.containers[0].env[0].value}").stdout().trim());
        // Another namespace is not bound.
        kubectl.ok("create", "deployment", "web", "-n", "default", "--image=nginx:1.27");
        assertEquals("1", kubectl.ok("get", "deployment", "web", "-n", "default", "-o",
                "jsonpath={.spec.replicas}").stdout().trim());
    }

    @Test
    @Order(2)
    void aJsonPatchLabelsConfigMaps() throws Exception {
        kubectl.ok("apply", "-f", write("label-configmaps.yaml", """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: label-configmaps}
                spec:
                  reinvocationPolicy: Never
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [configmaps]
                  matchConditions:
                  - name: patched-ones
                    expression: "object.metadata.name.startsWith('patched-')"
                  mutations:
                  - patchType: JSONPatch
                    jsonPatch:
                      expression: >
                        (has(object.metadata.labels)
                          ? [JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/patched"), value: "true"}]
                          : [JSONPatch{op: "add", path: "/metadata/labels", value: {"example.com/patched": "true"}}])
                        + [JSONPatch{op: "add", path: "/data/added", value: string(size(object.data))}]
                ---
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: label-configmaps}
                spec:
                  policyName: label-configmaps
                """).toString());
        await("the JSON patch", () -> created("configmap", "patched-1",
                "{.metadata.labels.example\\.com/patched} {.data.added}", "--from-literal=a=1"), "true 1"::equals);
        kubectl.ok("create", "configmap", "patched-2", "-n", "map", "--from-literal=a=1", "--from-literal=b=2");
        kubectl.ok("label", "configmap", "patched-2", "-n", "map", "keep=yes");
        assertEquals("true yes 2", kubectl.ok("get", "configmap", "patched-2", "-n", "map", "-o",
                "jsonpath={.metadata.labels.example\\.com/patched} {.metadata.labels.keep} {.data.added}").stdout().trim());
    }

    @Test
    @Order(3)
    void aPolicyTakesValuesFromItsBindingsParam() throws Exception {
        kubectl.ok("create", "configmap", "owners", "-n", "map", "--from-literal=owner=team-a");
        kubectl.ok("apply", "-f", write("owner.yaml", """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: owner}
                spec:
                  reinvocationPolicy: Never
                  paramKind: {apiVersion: v1, kind: ConfigMap}
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [configmaps]
                  matchConditions:
                  - name: owned-ones
                    expression: "object.metadata.name.startsWith('owned-')"
                  variables:
                  - name: owner
                    expression: "params.data.owner"
                  mutations:
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: "Object{metadata: Object.metadata{annotations: {'example.com/owner': variables.owner}}}"
                ---
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: owner}
                spec:
                  policyName: owner
                  paramRef: {name: owners, namespace: map, parameterNotFoundAction: Deny}
                """).toString());
        assertEquals("Deny", kubectl.ok("get", "mutatingadmissionpolicybinding", "owner", "-o",
                "jsonpath={.spec.paramRef.parameterNotFoundAction}").stdout().trim());
        await("the param's value", () -> created("configmap", "owned-1", "{.metadata.annotations.example\\.com/owner}"),
                "team-a"::equals);
        // The param is read live.
        kubectl.ok("patch", "configmap", "owners", "-n", "map", "-p", "{\"data\":{\"owner\":\"team-b\"}}");
        await("the new owner", () -> created("configmap", "owned-2", "{.metadata.annotations.example\\.com/owner}"),
                "team-b"::equals);
    }

    @Test
    @Order(4)
    void aFailingExpressionRefusesUnderFailAndIsIgnoredUnderIgnore() throws Exception {
        String policy = """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: fails}
                spec:
                  failurePolicy: %s
                  reinvocationPolicy: Never
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [configmaps]
                  matchConditions:
                  - name: broken-ones
                    expression: "object.metadata.name.startsWith('broken-')"
                  mutations:
                  - patchType: JSONPatch
                    jsonPatch:
                      expression: "[JSONPatch{op: 'add', path: '/data/copy', value: object.data.missing}]"
                ---
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: fails-binding}
                spec:
                  policyName: fails
                """;
        kubectl.ok("apply", "-f", write("fails.yaml", policy.formatted("Fail")).toString());
        Result refused = await("the failure", () -> kubectl.run("create", "configmap", "broken-1", "-n", "map",
                "--from-literal=a=1"), r -> r.exitCode() != 0);
        assertEquals("error: failed to create configmap: policy 'fails' with binding 'fails-binding' denied request: "
                        + "expression '[JSONPatch{op: 'add', path: '/data/copy', value: object.data.missing}]' resulted in "
                        + "error: no such key: missing", refused.stderr().trim(), refused::toString);

        kubectl.ok("apply", "-f", write("fails-ignored.yaml", policy.formatted("Ignore")).toString());
        await("the ignored failure", () -> kubectl.run("create", "configmap", "broken-1", "-n", "map",
                "--from-literal=a=1"), r -> r.exitCode() == 0);
        assertEquals("{\"a\":\"1\"}", kubectl.ok("get", "configmap", "broken-1", "-n", "map", "-o",
                "jsonpath={.data}").stdout().trim());
    }

    @Test
    @Order(5)
    void invalidPoliciesAreRefusedWithKubesMessages() throws Exception {
        Result invalid = kubectl.run("apply", "-f", write("invalid.yaml", """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: invalid}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [DELETE]
                      resources: [configmaps]
                  mutations:
                  - patchType: JSONPatch
                    applyConfiguration: {expression: "Object{}"}
                """).toString());
        assertTrue(invalid.exitCode() != 0, invalid::toString);
        String err = invalid.stderr();
        assertTrue(err.contains("spec.matchConstraints.resourceRules.operations: Unsupported value: \"DELETE\": "
                + "supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\""), invalid::toString);
        assertTrue(err.contains("spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch"),
                invalid::toString);
        assertTrue(err.contains("spec.reinvocationPolicy: Required value"), invalid::toString);
    }

    /**
     * Creates an object in namespace {@code map} (again, until a policy has taken effect) and reads
     * {@code jsonpath} of what was stored.
     */
    private String created(String kind, String name, String jsonpath, String... flags) throws Exception {
        kubectl.run("delete", kind, name, "-n", "map", "--ignore-not-found");
        String[] create = new String[4 + flags.length];
        create[0] = "create";
        create[1] = kind;
        create[2] = name;
        create[3] = "--namespace=map";
        System.arraycopy(flags, 0, create, 4, flags.length);
        kubectl.ok(create);
        return kubectl.ok("get", kind, name, "-n", "map", "-o", "jsonpath=" + jsonpath).stdout().trim();
    }
}
