package io.kubelix.itest.e2e;

import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PodSecurity admission plugin in the default distribution, driven by the real kubectl: a
 * {@code restricted} namespace refuses a privileged pod with kube's message and admits a hardened
 * one, a {@code warn=baseline} namespace answers a deployment with a hostPath volume with kube's
 * warning, label values that are not levels or versions are refused, and raising a namespace's
 * enforce level warns about the running pod that breaks it; a second server started with
 * {@code --admission-control-config-file} enforces its default level on unlabelled namespaces and
 * leaves its exempt namespace unchecked, saying so. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlPodSecurityIT extends KubectlSuite {
    private static final String PRIVILEGED_POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: priv, namespace: %s}
            spec:
              containers:
              - name: c
                image: nginx
                securityContext: {privileged: true}
            """;

    KubectlPodSecurityIT() {
        super("pod-security", "pods,deployments");
    }

    @Test
    @Order(1)
    void aRestrictedNamespaceRefusesAPrivilegedPodWithKubesMessageAndAdmitsAHardenedOne() throws Exception {
        kubectl.ok("create", "namespace", "secure");
        kubectl.ok("label", "namespace", "secure", "pod-security.kubernetes.io/enforce=restricted");
        Path privileged = write("privileged.yaml", PRIVILEGED_POD.formatted("secure"));

        Result refused = await("PodSecurity's refusal", () -> {
            kubectl.run("delete", "pod", "priv", "-n", "secure", "--ignore-not-found", "--grace-period=0");
            return kubectl.run("create", "-f", privileged.toString());
        }, r -> r.exitCode() != 0);
        assertEquals("Error from server (Forbidden): error when creating \"" + privileged + "\": pods \"priv\" is "
                        + "forbidden: violates PodSecurity \"restricted:latest\": "
                        + "privileged (container \"c\" must not set securityContext.privileged=true), "
                        + "allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
                        + "unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), "
                        + "runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), "
                        + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to "
                        + "\"RuntimeDefault\" or \"Localhost\")",
                refused.stderr().trim(), refused::toString);

        Result admitted = kubectl.ok("create", "-f", write("hardened.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: hardened, namespace: secure}
                spec:
                  securityContext:
                    runAsNonRoot: true
                    seccompProfile: {type: RuntimeDefault}
                  containers:
                  - name: c
                    image: nginx
                    securityContext:
                      allowPrivilegeEscalation: false
                      capabilities: {drop: [ALL]}
                """).toString());
        assertFalse(admitted.stderr().contains("Warning:"), admitted::toString);
        assertEquals("pod/hardened", kubectl.ok("get", "pod", "hardened", "-n", "secure", "-o", "name").stdout().trim());
    }

    @Test
    @Order(2)
    void aWarnBaselineNamespaceWarnsAboutADeploymentWithAHostPathVolume() throws Exception {
        kubectl.ok("create", "namespace", "warned");
        kubectl.ok("label", "namespace", "warned", "pod-security.kubernetes.io/warn=baseline");
        Path deployment = write("hostpath-deployment.yaml", """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: logs, namespace: warned}
                spec:
                  selector: {matchLabels: {app: logs}}
                  template:
                    metadata: {labels: {app: logs}}
                    spec:
                      containers:
                      - name: c
                        image: busybox
                        volumeMounts: [{name: varlog, mountPath: /var/log}]
                      volumes:
                      - name: varlog
                        hostPath: {path: /var/log}
                """);
        Result warned = await("PodSecurity's warning", () -> {
            kubectl.run("delete", "deployment", "logs", "-n", "warned", "--ignore-not-found");
            return kubectl.ok("create", "-f", deployment.toString());
        }, r -> r.stderr().contains("Warning:"));
        assertEquals("Warning: would violate PodSecurity \"baseline:latest\": hostPath volumes (volume \"varlog\")",
                warned.stderr().trim(), warned::toString);
        assertEquals("deployment.apps/logs created", warned.stdout().trim(), warned::toString);
    }

    @Test
    @Order(3)
    void labelValuesThatAreNotLevelsOrVersionsAreRefused() throws Exception {
        Result level = kubectl.run("label", "namespace", "secure", "pod-security.kubernetes.io/enforce=strict", "--overwrite");
        assertNotEquals(0, level.exitCode(), level::toString);
        assertTrue(level.stderr().contains("The Namespace \"secure\" is invalid: metadata.labels[pod-security.kubernetes.io/"
                + "enforce]: Invalid value: \"strict\": must be one of privileged, baseline, restricted"), level::toString);

        Result version = kubectl.run("create", "-f", write("bad-version.yaml", """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: pinned
                  labels: {pod-security.kubernetes.io/audit: baseline, pod-security.kubernetes.io/audit-version: "1.30"}
                """).toString());
        assertNotEquals(0, version.exitCode(), version::toString);
        assertTrue(version.stderr().contains("The Namespace \"pinned\" is invalid: metadata.labels[pod-security.kubernetes.io/"
                + "audit-version]: Invalid value: \"1.30\": must be \"latest\" or \"v1.x\""), version::toString);
        assertEquals("restricted", kubectl.ok("get", "namespace", "secure", "-o",
                "jsonpath={.metadata.labels.pod-security\\.kubernetes\\.io/enforce}").stdout().trim());
    }

    @Test
    @Order(4)
    void raisingEnforceOnANamespaceWithARunningViolatingPodWarnsWithKubesWords() throws Exception {
        kubectl.ok("create", "namespace", "legacy");
        kubectl.ok("create", "-f", write("legacy-privileged.yaml", PRIVILEGED_POD.formatted("legacy")).toString());
        kubectl.ok("patch", "pod", "priv", "-n", "legacy", "--subresource=status", "--type=merge",
                "-p", "{\"status\":{\"phase\":\"Running\"}}");

        Result raised = await("the warning about existing pods", () -> {
            kubectl.run("label", "namespace", "legacy", "pod-security.kubernetes.io/enforce-");
            return kubectl.ok("label", "namespace", "legacy", "pod-security.kubernetes.io/enforce=baseline");
        }, r -> r.stderr().contains("Warning:"));
        assertEquals("Warning: existing pods in namespace \"legacy\" violate the new PodSecurity enforce level "
                + "\"baseline:latest\"\nWarning: priv: privileged", raised.stderr().trim(), raised::toString);
        assertEquals("namespace/legacy labeled", raised.stdout().trim(), raised::toString);

        // The running pod stays; a new one like it is refused.
        assertEquals("Running", kubectl.ok("get", "pod", "priv", "-n", "legacy", "-o", "jsonpath={.status.phase}")
                .stdout().trim());
        Result refused = await("the new enforce level", () -> {
            kubectl.run("delete", "pod", "again", "-n", "legacy", "--ignore-not-found", "--grace-period=0");
            return kubectl.run("run", "again", "-n", "legacy", "--image=nginx",
                    "--overrides={\"spec\":{\"hostNetwork\":true}}");
        }, r -> r.exitCode() != 0);
        assertTrue(refused.stderr().contains("pods \"again\" is forbidden: violates PodSecurity \"baseline:latest\": "
                + "host namespaces (hostNetwork=true)"), refused::toString);
    }

    @Test
    @Order(5)
    void theAdmissionControlConfigFileSetsTheDefaultsAndExemptions() throws Exception {
        Path other = KubelixServer.workDirectory("pod-security-config");
        Path config = other.resolve("admission.yaml");
        Files.createDirectories(other);
        Files.writeString(config, """
                apiVersion: apiserver.config.k8s.io/v1
                kind: AdmissionConfiguration
                plugins:
                - name: PodSecurity
                  configuration:
                    apiVersion: pod-security.admission.config.k8s.io/v1
                    kind: PodSecurityConfiguration
                    defaults: {enforce: baseline}
                    exemptions: {namespaces: [tools]}
                """);
        Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution"));
        try (KubelixServer configured = KubelixServer.start(distribution, other, READY_TIMEOUT,
                "--admission-control-config-file=" + config)) {
            Kubectl k = configured.kubectl(other);
            configured.awaitServed(k, READY_TIMEOUT, "pods");
            k.ok("create", "namespace", "plain");
            Path plain = other.resolve("plain-privileged.yaml");
            Files.writeString(plain, PRIVILEGED_POD.formatted("plain"));
            Result refused = configured.await("the default enforce level", READY_TIMEOUT,
                    () -> k.run("create", "-f", plain.toString()), r -> r.exitCode() != 0);
            assertTrue(refused.stderr().contains("pods \"priv\" is forbidden: violates PodSecurity \"baseline:latest\": "
                    + "privileged (container \"c\" must not set securityContext.privileged=true)"), refused::toString);

            Result labelled = k.ok("create", "-f", write("tools.yaml", """
                    apiVersion: v1
                    kind: Namespace
                    metadata: {name: tools, labels: {pod-security.kubernetes.io/enforce: restricted}}
                    """).toString());
            assertEquals("Warning: namespace \"tools\" is exempt from Pod Security, and the policy "
                    + "(enforce=restricted:latest) will be ignored", labelled.stderr().trim(), labelled::toString);
            Path tools = other.resolve("tools-privileged.yaml");
            Files.writeString(tools, PRIVILEGED_POD.formatted("tools"));
            configured.await("the exempt namespace", READY_TIMEOUT, () -> k.run("create", "-f", tools.toString()),
                    r -> r.exitCode() == 0);
        }
    }
}
