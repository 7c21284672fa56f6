package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube's default admission plugins in the full distribution, driven by the real kubectl:
 * ResourceQuota refusing the create past a quota's object count with kube's message, and the quota
 * controller keeping {@code status.used} current as objects come and go; LimitRanger's defaults on
 * a new pod; ServiceAccount's default account and projected token volume; DefaultStorageClass and
 * DefaultIngressClass. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAdmissionPluginsIT extends KubectlSuite {

    KubectlAdmissionPluginsIT() {
        super("admission-plugins", "resourcequotas");
    }

    @Test
    @Order(1)
    void aQuotaOfThreeConfigMapsRefusesTheFourthAndReportsItsUsage() throws Exception {
        kubectl.ok("create", "namespace", "quota");
        kubectl.ok("create", "quota", "q", "-n", "quota", "--hard=count/configmaps=3");
        await("the quota's usage", () -> kubectl.ok("get", "quota", "q", "-n", "quota", "-o",
                "jsonpath={.status.used['count/configmaps']}").stdout(), "0"::equals);

        for (int i = 1; i <= 3; i++) {
            kubectl.ok("create", "configmap", "c" + i, "-n", "quota", "--from-literal=k=v");
        }
        Path fourth = work.resolve("c4.yaml");
        Files.writeString(fourth, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c4, namespace: quota}\n");
        Result refused = kubectl.run("create", "-f", fourth.toString());
        assertNotEquals(0, refused.exitCode(), refused::toString);
        assertEquals("Error from server (Forbidden): error when creating \"" + fourth + "\": configmaps \"c4\" is "
                + "forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited: "
                + "count/configmaps=3", refused.stderr().trim());
        assertEquals("3", kubectl.ok("get", "quota", "q", "-n", "quota", "-o",
                "jsonpath={.status.used['count/configmaps']}").stdout());
        String table = kubectl.ok("get", "quota", "-n", "quota").stdout();
        assertTrue(table.contains("count/configmaps: 3/3"), table);

        // A deleted configmap is given back, and the fourth fits.
        kubectl.ok("delete", "configmap", "c1", "-n", "quota");
        await("the usage after the delete", () -> kubectl.ok("get", "quota", "q", "-n", "quota", "-o",
                "jsonpath={.status.used['count/configmaps']}").stdout(), "2"::equals);
        kubectl.ok("create", "-f", fourth.toString());
        // A dry run past the quota is refused too, and changes nothing.
        Result dryRun = kubectl.run("create", "configmap", "c5", "-n", "quota", "--dry-run=server");
        assertTrue(dryRun.stderr().contains("exceeded quota: q"), dryRun::toString);
    }

    @Test
    @Order(2)
    void aLimitRangesDefaultsAreSetOnANewPod() throws Exception {
        kubectl.ok("create", "namespace", "limits");
        Path range = work.resolve("limitrange.yaml");
        Files.writeString(range, """
                apiVersion: v1
                kind: LimitRange
                metadata: {name: defaults, namespace: limits}
                spec:
                  limits:
                  - type: Container
                    default: {cpu: 500m, memory: 256Mi}
                    defaultRequest: {cpu: 100m}
                """);
        kubectl.ok("apply", "-f", range.toString());

        JsonNode pod = await("the limit range's defaults", () -> {
            String name = "web-" + System.nanoTime();
            return JSON.readTree(kubectl.ok("run", name, "-n", "limits", "--image=nginx", "-o", "json").stdout());
        }, p -> p.path("metadata").path("annotations").has("kubernetes.io/limit-ranger"));

        JsonNode resources = pod.path("spec").path("containers").path(0).path("resources");
        assertEquals("500m", resources.path("limits").path("cpu").asText(), resources::toString);
        assertEquals("256Mi", resources.path("limits").path("memory").asText(), resources::toString);
        assertEquals("100m", resources.path("requests").path("cpu").asText(), resources::toString);
        assertEquals("256Mi", resources.path("requests").path("memory").asText(), resources::toString);
        String name = pod.path("metadata").path("name").asText();
        assertEquals("LimitRanger plugin set: cpu, memory request for container " + name + "; cpu, memory limit for "
                + "container " + name, pod.path("metadata").path("annotations").path("kubernetes.io/limit-ranger").asText());
        assertEquals("Burstable", pod.path("status").path("qosClass").asText(), pod::toString);
    }

    @Test
    @Order(3)
    void aPodRunsAsTheDefaultServiceAccountWithItsTokenMounted() throws Exception {
        kubectl.ok("create", "namespace", "accounts");
        JsonNode pod = JSON.readTree(kubectl.ok("run", "web", "-n", "accounts", "--image=nginx", "-o", "json").stdout());

        JsonNode spec = pod.path("spec");
        assertEquals("default", spec.path("serviceAccountName").asText(), pod::toString);
        JsonNode volume = spec.path("volumes").path(0);
        assertTrue(volume.path("name").asText().matches("kube-api-access-[a-z0-9]{5}"), pod::toString);
        assertEquals(3607, volume.path("projected").path("sources").path(0).path("serviceAccountToken")
                .path("expirationSeconds").asInt(), pod::toString);
        assertEquals("kube-root-ca.crt", volume.path("projected").path("sources").path(1).path("configMap").path("name")
                .asText(), pod::toString);
        JsonNode mount = spec.path("containers").path(0).path("volumeMounts").path(0);
        assertEquals(volume.path("name").asText(), mount.path("name").asText(), pod::toString);
        assertEquals("/var/run/secrets/kubernetes.io/serviceaccount", mount.path("mountPath").asText(), pod::toString);
        assertTrue(mount.path("readOnly").asBoolean(), pod::toString);

        kubectl.ok("create", "serviceaccount", "quiet", "-n", "accounts");
        kubectl.ok("patch", "serviceaccount", "quiet", "-n", "accounts", "-p", "{\"automountServiceAccountToken\":false}");
        JsonNode quiet = await("the quiet account's pod", () -> {
            String name = "quiet-" + System.nanoTime();
            Result r = kubectl.run("run", name, "-n", "accounts", "--image=nginx", "-o", "json",
                    "--overrides={\"spec\":{\"serviceAccountName\":\"quiet\"}}");
            return r.exitCode() == 0 ? JSON.readTree(r.stdout()) : null;
        }, p -> p != null && !p.path("spec").has("volumes"));
        assertEquals("quiet", quiet.path("spec").path("serviceAccountName").asText());

        Result ghost = kubectl.run("run", "ghost", "-n", "accounts", "--image=nginx",
                "--overrides={\"spec\":{\"serviceAccountName\":\"ghost\"}}");
        assertTrue(ghost.stderr().contains("pods \"ghost\" is forbidden: error looking up service account accounts/ghost: "
                + "serviceaccount \"ghost\" not found"), ghost::toString);
    }

    @Test
    @Order(4)
    void claimsAndIngressesWithoutAClassGetTheDefaultOne() throws Exception {
        Path classes = work.resolve("classes.yaml");
        Files.writeString(classes, """
                apiVersion: storage.k8s.io/v1
                kind: StorageClass
                metadata:
                  name: standard
                  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
                provisioner: example.com/disk
                ---
                apiVersion: networking.k8s.io/v1
                kind: IngressClass
                metadata:
                  name: nginx
                  annotations: {ingressclass.kubernetes.io/is-default-class: "true"}
                spec: {controller: example.com/ingress}
                """);
        kubectl.ok("apply", "-f", classes.toString());

        String claimClass = await("the default storage class", () -> {
            Path claim = work.resolve("claim.yaml");
            Files.writeString(claim, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-" + System.nanoTime()
                    + "}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n");
            return JSON.readTree(kubectl.ok("create", "-f", claim.toString(), "-o", "json").stdout())
                    .path("spec").path("storageClassName").asText();
        }, "standard"::equals);
        assertEquals("standard", claimClass);

        String ingressClass = await("the default ingress class", () -> JSON.readTree(kubectl.ok("create", "ingress",
                "web-" + System.nanoTime(), "--rule=example.com/=web:80", "-o", "json").stdout())
                .path("spec").path("ingressClassName").asText(), "nginx"::equals);
        assertEquals("nginx", ingressClass);
    }
}
