package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
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
 * when the binding says so, removing a binding lifts its policy at once, a policy on
 * {@code autoscaling/v2} judges an {@code autoscaling/v1} request in v2's shape
 * ({@code matchPolicy: Equivalent}), audit annotations reach the audit log, and a misspelt field is
 * a type-checking warning in the policy's status. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAdmissionPolicyIT extends KubectlSuite {

    private Path auditLog;

    KubectlAdmissionPolicyIT() {
        super("admission-policy", "validatingadmissionpolicies,validatingadmissionpolicybindings");
    }

    /** The audit log of every write at Metadata level, where admission's audit annotations appear. */
    @Override
    String[] flags() throws Exception {
        Path policy = write("audit-policy.yaml", """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: [RequestReceived]
                rules:
                - level: Metadata
                  verbs: [create]
                """);
        auditLog = work.resolve("audit.log");
        return new String[] {"--audit-policy-file", policy.toString(), "--audit-log-path", auditLog.toString()};
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

    @Test
    @Order(6)
    void aPolicyOnOneVersionJudgesARequestThroughAnotherInItsShape() throws Exception {
        kubectl.ok("create", "namespace", "scaling");
        kubectl.ok("apply", "-f", write("cpu-target.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: cpu-target}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [autoscaling]
                      apiVersions: [v2]
                      operations: [CREATE]
                      resources: [horizontalpodautoscalers]
                  validations:
                  - expression: "object.spec.metrics.all(m, m.resource.target.averageUtilization <= 80)"
                    messageExpression: "'utilization targets above 80 are not allowed (the ' + request.requestKind.version + ' request seen as ' + request.kind.version + ')'"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: cpu-target}
                spec:
                  policyName: cpu-target
                  validationActions: [Deny]
                  matchResources:
                    namespaceSelector:
                      matchLabels: {kubernetes.io/metadata.name: scaling}
                """).toString());
        Path greedy = write("greedy-v1.yaml", """
                apiVersion: autoscaling/v1
                kind: HorizontalPodAutoscaler
                metadata: {name: greedy, namespace: scaling}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                  maxReplicas: 3
                  targetCPUUtilizationPercentage: 95
                """);
        Result refused = await("the v2 policy's denial", () -> kubectl.run("create", "-f", greedy.toString()),
                r -> r.exitCode() != 0);
        // a 422 (the validation's reason, Invalid), which kubectl words as an invalid object
        assertEquals("The horizontalpodautoscalers \"greedy\" is invalid: : ValidatingAdmissionPolicy 'cpu-target' with "
                + "binding 'cpu-target' denied request: utilization targets above 80 are not allowed (the v1 request "
                + "seen as v2)", refused.stderr().trim(), refused::toString);
        kubectl.ok("create", "-f", write("modest-v1.yaml", """
                apiVersion: autoscaling/v1
                kind: HorizontalPodAutoscaler
                metadata: {name: modest, namespace: scaling}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                  maxReplicas: 3
                  targetCPUUtilizationPercentage: 60
                """).toString());
    }

    @Test
    @Order(7)
    void auditAnnotationsReachTheAuditLogAndMisspeltFieldsAreTypeCheckingWarnings() throws Exception {
        kubectl.ok("create", "namespace", "audited");
        kubectl.ok("apply", "-f", write("key-count.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: key-count}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [""]
                      apiVersions: [v1]
                      operations: [CREATE]
                      resources: [configmaps]
                  validations:
                  - expression: "!has(object.dat)"
                  auditAnnotations:
                  - key: keys
                    valueExpression: "'configmap has ' + string(has(object.data) ? object.data.size() : 0) + ' keys'"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: key-count}
                spec:
                  policyName: key-count
                  validationActions: [Audit]
                  matchResources:
                    namespaceSelector:
                      matchLabels: {kubernetes.io/metadata.name: audited}
                """).toString());

        // status.typeChecking: configmaps have no field dat
        String warning = await("the type checker's warning", () -> kubectl.ok("get", "validatingadmissionpolicy",
                "key-count", "-o", "jsonpath={.status.typeChecking.expressionWarnings[0].warning}").stdout(),
                w -> !w.isEmpty());
        assertTrue(warning.startsWith("/v1, Kind=ConfigMap: ERROR: <input>:1:") && warning.contains("undefined field 'dat'"),
                warning);
        assertEquals("spec.validations[0].expression", kubectl.ok("get", "validatingadmissionpolicy", "key-count", "-o",
                "jsonpath={.status.typeChecking.expressionWarnings[0].fieldRef}").stdout());

        JsonNode annotations = await("the policy's audit annotation", () -> {
            String name = "counted-" + System.nanoTime();
            kubectl.ok("create", "configmap", name, "-n", "audited", "--from-literal=a=1", "--from-literal=b=2");
            Thread.sleep(200);
            return createEvent(name).path("annotations");
        }, a -> a.has("key-count/keys"));
        assertEquals("configmap has 2 keys", annotations.path("key-count/keys").asText(), annotations::toString);
    }

    /** The audit event of the create of configmap {@code name}, or a missing node. */
    private JsonNode createEvent(String name) throws Exception {
        if (!java.nio.file.Files.exists(auditLog)) {
            return JSON.missingNode();
        }
        for (String line : java.nio.file.Files.readAllLines(auditLog)) {
            JsonNode e = JSON.readTree(line);
            if (e.path("verb").asText().equals("create") && e.path("objectRef").path("name").asText().equals(name)) {
                return e;
            }
        }
        return JSON.missingNode();
    }
}
