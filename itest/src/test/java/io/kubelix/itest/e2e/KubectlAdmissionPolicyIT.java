package io.kubelix.itest.e2e;

import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ValidatingAdmissionPolicy in the default distribution, driven by the real kubectl: a policy
 * with params read from a ConfigMap refuses what its binding denies with kube's message, a
 * binding that warns lets the write through with kubectl's warning, a missing param is refused
 * when the binding says so, and removing a binding lifts its policy at once. The methods run in
 * order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAdmissionPolicyIT extends KubectlSuite {

    KubectlAdmissionPolicyIT() {
        super("admission-policy", "validatingadmissionpolicies,validatingadmissionpolicybindings");
    }

    @Test
    @Order(1)
    void aPolicyWithParamsDeniesWhatItsBindingDeniesWithKubesMessage() throws Exception {
        kubectl.ok("create", "namespace", "vap");
        kubectl.ok("create", "configmap", "limits", "-n", "vap", "--from-literal=maxKeys=2");
        kubectl.ok("apply", "-f", write("max-keys.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: max-keys}
                spec:
                  failurePolicy: Fail
                  paramKind: {apiVersion: v1, kind: ConfigMap}
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [CREATE, UPDATE]
                      resources: [configmaps]
                  matchConditions:
                  - name: not-the-limits
                    expression: "object.metadata.name != 'limits'"
                  variables:
                  - name: keys
                    expression: "has(object.data) ? object.data.size() : 0"
                  validations:
                  - expression: "variables.keys <= int(params.data.maxKeys)"
                    messageExpression: "'configmap ' + object.metadata.name + ' has ' + string(variables.keys) + ' keys, at most ' + params.data.maxKeys + ' are allowed'"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: max-keys-vap}
                spec:
                  policyName: max-keys
                  validationActions: [Deny]
                  paramRef: {name: limits, namespace: vap, parameterNotFoundAction: Deny}
                  matchResources:
                    namespaceSelector:
                      matchLabels: {kubernetes.io/metadata.name: vap}
                """).toString());

        Result refused = await("the policy's denial", () -> kubectl.run("create", "configmap", "big", "-n", "vap",
                "--from-literal=a=1", "--from-literal=b=2", "--from-literal=c=3"), r -> r.exitCode() != 0);
        assertEquals("error: failed to create configmap: configmaps \"big\" is forbidden: "
                        + "ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-vap' denied request: "
                        + "configmap big has 3 keys, at most 2 are allowed",
                refused.stderr().trim(), refused::toString);
        kubectl.ok("create", "configmap", "small", "-n", "vap", "--from-literal=a=1", "--from-literal=b=2");
        // Another namespace is not bound.
        kubectl.ok("create", "configmap", "big", "-n", "default", "--from-literal=a=1", "--from-literal=b=2",
                "--from-literal=c=3");

        // The params are read live: raising the limit lets the same configmap in.
        kubectl.ok("patch", "configmap", "limits", "-n", "vap", "-p", "{\"data\":{\"maxKeys\":\"3\"}}");
        await("the new limit", () -> kubectl.run("create", "configmap", "big", "-n", "vap",
                "--from-literal=a=1", "--from-literal=b=2", "--from-literal=c=3"), r -> r.exitCode() == 0);

        // An update is judged too, as a 422 with the policy's message.
        Result update = kubectl.run("patch", "configmap", "small", "-n", "vap", "-p",
                "{\"data\":{\"c\":\"3\",\"d\":\"4\"}}");
        assertNotEquals(0, update.exitCode(), update::toString);
        assertTrue(update.stderr().contains("The configmaps \"small\" is invalid: : ValidatingAdmissionPolicy 'max-keys'"
                + " with binding 'max-keys-vap' denied request: configmap small has 4 keys, at most 3 are allowed"),
                update::toString);
    }

    @Test
    @Order(2)
    void aBindingThatWarnsLetsTheWriteThroughWithKubectlsWarning() throws Exception {
        kubectl.ok("apply", "-f", write("require-team.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: require-team}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [configmaps]
                  validations:
                  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                    message: a team label is required
                    reason: Forbidden
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: require-team-warn}
                spec:
                  policyName: require-team
                  validationActions: [Warn]
                """).toString());
        Result warned = await("the policy's warning", () -> kubectl.ok("create", "configmap", "unlabelled-"
                + System.nanoTime(), "-n", "default"), r -> r.stderr().contains("Warning:"));
        assertTrue(warned.stderr().contains("Warning: Validation failed for ValidatingAdmissionPolicy 'require-team' "
                + "with binding 'require-team-warn': a team label is required"), warned::toString);
        Result labelled = kubectl.ok("create", "-f", write("labelled.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: labelled, namespace: default, labels: {team: a}}
                """).toString());
        assertTrue(!labelled.stderr().contains("Warning:"), labelled::toString);
    }

    @Test
    @Order(3)
    void aDenyingBindingRefusesWithItsReasonAndGoesWithTheBinding() throws Exception {
        kubectl.ok("apply", "-f", write("require-team-deny.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: require-team-deny}
                spec:
                  policyName: require-team
                  validationActions: [Deny]
                  matchResources:
                    namespaceSelector:
                      matchLabels: {kubernetes.io/metadata.name: vap}
                """).toString());
        Result refused = await("the denial", () -> kubectl.run("create", "configmap", "nolabel", "-n", "vap"),
                r -> r.exitCode() != 0);
        assertEquals("error: failed to create configmap: configmaps \"nolabel\" is forbidden: ValidatingAdmissionPolicy "
                + "'require-team' with binding 'require-team-deny' denied request: a team label is required",
                refused.stderr().trim(), refused::toString);

        kubectl.ok("delete", "validatingadmissionpolicybinding", "require-team-deny");
        await("the binding's removal", () -> kubectl.run("create", "configmap", "nolabel", "-n", "vap"),
                r -> r.exitCode() == 0);
    }

    @Test
    @Order(4)
    void aPolicyAsksTheAuthorizerAboutTheRequestingUser() throws Exception {
        kubectl.ok("create", "namespace", "guarded");
        kubectl.ok("create", "role", "cm-writer", "-n", "guarded", "--verb=create,get", "--resource=configmaps");
        kubectl.ok("create", "rolebinding", "jane-writes", "-n", "guarded", "--role=cm-writer", "--user=jane");
        kubectl.ok("apply", "-f", write("protected.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: protected-label}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [configmaps]
                  validations:
                  - expression: "!has(object.metadata.labels) || !('protected' in object.metadata.labels) || authorizer.group('').resource('configmaps').namespace(object.metadata.namespace).check('delete').allowed()"
                    messageExpression: "'only users who may delete configmaps may create protected ones; ' + request.userInfo.username + ' may not'"
                    reason: Forbidden
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: protected-label}
                spec:
                  policyName: protected-label
                  validationActions: [Deny]
                """).toString());
        Path labelled = write("guarded.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: guarded, namespace: guarded, labels: {protected: "yes", team: a}}
                """);
        Result refused = await("the authorizer's answer", () -> kubectl.run("create", "-f", labelled.toString(), "--as=jane"),
                r -> r.exitCode() != 0 && r.stderr().contains("ValidatingAdmissionPolicy"));
        assertTrue(refused.stderr().contains("configmaps \"guarded\" is forbidden: ValidatingAdmissionPolicy 'protected-label' "
                + "with binding 'protected-label' denied request: only users who may delete configmaps may create "
                + "protected ones; jane may not"), refused::toString);
        // Jane may create it unlabelled, and an admin (who may delete configmaps) labelled.
        kubectl.ok("create", "configmap", "plain", "-n", "guarded", "--as=jane");
        kubectl.ok("create", "-f", labelled.toString());
    }

    @Test
    @Order(5)
    void aMissingParamIsRefusedWhenTheBindingSaysDeny() throws Exception {
        kubectl.ok("delete", "configmap", "limits", "-n", "vap");
        Result refused = await("the missing param's denial", () -> kubectl.run("create", "configmap", "after", "-n",
                "vap", "--from-literal=a=1"), r -> r.exitCode() != 0);
        assertTrue(refused.stderr().contains("ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-vap' denied "
                + "request: failed to configure binding: no params found for policy binding with `Deny` "
                + "parameterNotFoundAction"), refused::toString);
    }
}
