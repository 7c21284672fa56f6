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
 * DefaultIngressClass; the root CA publisher's {@code kube-root-ca.crt}; a cpu quota; a LimitRange's
 * maximum; Priority and DefaultTolerationSeconds; StorageObjectInUseProtection and
 * TaintNodesByCondition; PersistentVolumeClaimResize; the limitedResources of ResourceQuota's admission
 * configuration; Priority's single global default. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAdmissionPluginsIT extends KubectlSuite {

    KubectlAdmissionPluginsIT() {
        super("admission-plugins", "resourcequotas");
    }

    /** ResourceQuota's configuration: claims of the gold class and cluster-services pods need a covering quota. */
    @Override
    String[] flags() throws Exception {
        write("quota-config.yaml", """
                apiVersion: resourcequota.admission.k8s.io/v1beta1
                kind: Configuration
                limitedResources:
                - resource: persistentvolumeclaims
                  matchContains: [gold.storageclass.storage.k8s.io/requests.storage]
                - resource: pods
                  matchScopes:
                  - {scopeName: PriorityClass, operator: In, values: [cluster-services]}
                """);
        Path admission = write("admission.yaml", """
                apiVersion: apiserver.config.k8s.io/v1
                kind: AdmissionConfiguration
                plugins:
                - name: ResourceQuota
                  path: quota-config.yaml
                """);
        return new String[] {"--admission-control-config-file", admission.toString()};
    }

    @Test
    @Order(1)
    void aQuotaOfFourConfigMapsHoldsTheRootCAAndThreeMoreAndReportsItsUsage() throws Exception {
        kubectl.ok("create", "namespace", "quota");
        // As in kube, the namespace's kube-root-ca.crt is one of the configmaps the quota counts.
        kubectl.ok("create", "quota", "q", "-n", "quota", "--hard=count/configmaps=4");
        await("the quota's usage", () -> kubectl.ok("get", "quota", "q", "-n", "quota", "-o",
                "jsonpath={.status.used['count/configmaps']}").stdout(), "1"::equals);

        for (int i = 1; i <= 3; i++) {
            kubectl.ok("create", "configmap", "c" + i, "-n", "quota", "--from-literal=k=v");
        }
        Path fourth = work.resolve("c4.yaml");
        Files.writeString(fourth, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c4, namespace: quota}\n");
        Result refused = kubectl.run("create", "-f", fourth.toString());
        assertNotEquals(0, refused.exitCode(), refused::toString);
        assertEquals("Error from server (Forbidden): error when creating \"" + fourth + "\": configmaps \"c4\" is "
                + "forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=4, limited: "
                + "count/configmaps=4", refused.stderr().trim());
        assertEquals("4", kubectl.ok("get", "quota", "q", "-n", "quota", "-o",
                "jsonpath={.status.used['count/configmaps']}").stdout());
        String table = kubectl.ok("get", "quota", "-n", "quota").stdout();
        assertTrue(table.contains("count/configmaps: 4/4"), table);

        // A deleted configmap is given back, and the fourth fits.
        kubectl.ok("delete", "configmap", "c1", "-n", "quota");
        await("the usage after the delete", () -> kubectl.ok("get", "quota", "q", "-n", "quota", "-o",
                "jsonpath={.status.used['count/configmaps']}").stdout(), "3"::equals);
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

    @Test
    @Order(5)
    void everyNamespaceHoldsTheRootCAWhichComesBackWhenDeletedOrChanged() throws Exception {
        kubectl.ok("create", "namespace", "rootca");
        String ca = Files.readString(server.caCertificate());
        JsonNode cm = await("kube-root-ca.crt", () -> {
            Result r = kubectl.run("get", "configmap", "kube-root-ca.crt", "-n", "rootca", "-o", "json");
            return r.exitCode() == 0 ? JSON.readTree(r.stdout()) : null;
        }, c -> c != null);
        assertEquals(ca, cm.path("data").path("ca.crt").asText(), cm::toString);
        assertTrue(cm.path("metadata").path("annotations").path("kubernetes.io/description").asText()
                .startsWith("Contains a CA bundle that can be used to verify the kube-apiserver"), cm::toString);

        String uid = cm.path("metadata").path("uid").asText();
        kubectl.ok("delete", "configmap", "kube-root-ca.crt", "-n", "rootca");
        await("kube-root-ca.crt created again", () -> kubectl.run("get", "configmap", "kube-root-ca.crt", "-n", "rootca",
                "-o", "jsonpath={.metadata.uid}").stdout(), u -> !u.isEmpty() && !u.equals(uid));

        kubectl.ok("patch", "configmap", "kube-root-ca.crt", "-n", "rootca", "-p", "{\"data\":{\"ca.crt\":\"mine\"}}");
        await("kube-root-ca.crt put back", () -> JSON.readTree(kubectl.ok("get", "configmap", "kube-root-ca.crt", "-n",
                "rootca", "-o", "json").stdout()).path("data").path("ca.crt").asText(), ca::equals);
    }

    @Test
    @Order(6)
    void aCpuQuotaChargesPodsAndRefusesWhatPassesIt() throws Exception {
        kubectl.ok("create", "namespace", "compute");
        kubectl.ok("create", "quota", "cpu", "-n", "compute", "--hard=requests.cpu=1,limits.cpu=2");
        await("the quota's usage", this::cpuUsed, "0"::equals);

        kubectl.ok("run", "small", "-n", "compute", "--image=nginx", "--overrides=" + pod("small", "500m", "1"));
        await("the pod's charge", this::cpuUsed, "500m"::equals);

        Result bare = kubectl.run("run", "bare", "-n", "compute", "--image=nginx");
        assertEquals("Error from server (Forbidden): pods \"bare\" is forbidden: failed quota: cpu: must specify "
                + "limits.cpu for: bare; requests.cpu for: bare", bare.stderr().trim(), bare::toString);
        Result big = kubectl.run("run", "big", "-n", "compute", "--image=nginx", "--overrides=" + pod("big", "600m", "1"));
        assertEquals("Error from server (Forbidden): pods \"big\" is forbidden: exceeded quota: cpu, requested: "
                + "requests.cpu=600m, used: requests.cpu=500m, limited: requests.cpu=1", big.stderr().trim(), big::toString);

        kubectl.ok("delete", "pod", "small", "-n", "compute");
        await("the usage given back", this::cpuUsed, "0"::equals);
    }

    private String cpuUsed() throws Exception {
        return JSON.readTree(kubectl.ok("get", "quota", "cpu", "-n", "compute", "-o", "json").stdout())
                .path("status").path("used").path("requests.cpu").asText();
    }

    /** A pod whose one container requests and limits cpu, as {@code kubectl run --overrides} takes it. */
    private static String pod(String name, String request, String limit) {
        return "{\"spec\":{\"containers\":[{\"name\":\"" + name + "\",\"image\":\"nginx\",\"resources\":{\"requests\":"
                + "{\"cpu\":\"" + request + "\"},\"limits\":{\"cpu\":\"" + limit + "\"}}}]}}";
    }

    @Test
    @Order(7)
    void aLimitRangesMaximumRefusesABiggerContainer() throws Exception {
        kubectl.ok("create", "namespace", "bounds");
        kubectl.ok("apply", "-f", write("bounds.yaml", """
                apiVersion: v1
                kind: LimitRange
                metadata: {name: bounds, namespace: bounds}
                spec:
                  limits:
                  - type: Container
                    max: {cpu: "1"}
                """).toString());

        Result big = await("the limit range's maximum", () -> kubectl.run("run", "big", "-n", "bounds", "--image=nginx",
                "--overrides=" + pod("big", "1", "2")), r -> r.exitCode() != 0);
        assertEquals("Error from server (Forbidden): pods \"big\" is forbidden: maximum cpu usage per Container is 1, "
                + "but limit is 2", big.stderr().trim(), big::toString);
        JsonNode fits = JSON.readTree(kubectl.ok("run", "fits", "-n", "bounds", "--image=nginx", "-o", "json").stdout());
        assertEquals("1", fits.path("spec").path("containers").path(0).path("resources").path("limits").path("cpu").asText(),
                fits::toString);
    }

    @Test
    @Order(8)
    void podsGetTheirPriorityClassesPriorityAndTheDefaultTolerations() throws Exception {
        kubectl.ok("create", "namespace", "priorities");
        kubectl.ok("create", "priorityclass", "high", "--value=1000", "--preemption-policy=Never");

        JsonNode high = await("the priority class", () -> {
            Result r = kubectl.run("run", "high-" + System.nanoTime(), "-n", "priorities", "--image=nginx", "-o", "json",
                    "--overrides={\"spec\":{\"priorityClassName\":\"high\"}}");
            return r.exitCode() == 0 ? JSON.readTree(r.stdout()) : null;
        }, p -> p != null);
        assertEquals(1000, high.path("spec").path("priority").asInt(), high::toString);
        assertEquals("Never", high.path("spec").path("preemptionPolicy").asText(), high::toString);

        Result gold = kubectl.run("run", "gold", "-n", "priorities", "--image=nginx",
                "--overrides={\"spec\":{\"priorityClassName\":\"gold\"}}");
        assertEquals("Error from server (Forbidden): pods \"gold\" is forbidden: no PriorityClass with name gold was found",
                gold.stderr().trim(), gold::toString);

        JsonNode plain = JSON.readTree(kubectl.ok("run", "plain", "-n", "priorities", "--image=nginx", "-o", "json").stdout());
        assertEquals(0, plain.path("spec").path("priority").asInt(-1), plain::toString);
        assertEquals("PreemptLowerPriority", plain.path("spec").path("preemptionPolicy").asText(), plain::toString);
        JsonNode tolerations = plain.path("spec").path("tolerations");
        assertEquals(2, tolerations.size(), plain::toString);
        assertEquals("node.kubernetes.io/not-ready", tolerations.path(0).path("key").asText(), plain::toString);
        assertEquals(300, tolerations.path(1).path("tolerationSeconds").asInt(), plain::toString);
    }

    @Test
    @Order(9)
    void claimsAreProtectedWhileInUseAndNewNodesAreTaintedNotReady() throws Exception {
        kubectl.ok("create", "namespace", "protected");
        Path claim = write("protected-claim.yaml", "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, "
                + "namespace: protected}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n");
        JsonNode created = JSON.readTree(kubectl.ok("create", "-f", claim.toString(), "-o", "json").stdout());
        assertEquals("[\"kubernetes.io/pvc-protection\"]", created.path("metadata").path("finalizers").toString(),
                created::toString);
        // No pod uses it: the pvc-protection controller lets the delete finish.
        kubectl.ok("delete", "pvc", "data", "-n", "protected", "--timeout=30s");
        assertTrue(kubectl.run("get", "pvc", "data", "-n", "protected").stderr().contains("not found"));

        Path node = write("tainted-node.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: fresh}\n");
        JsonNode fresh = JSON.readTree(kubectl.ok("create", "-f", node.toString(), "-o", "json").stdout());
        JsonNode taints = fresh.path("spec").path("taints");
        assertEquals(1, taints.size(), fresh::toString);
        assertEquals("node.kubernetes.io/not-ready", taints.path(0).path("key").asText(), fresh::toString);
        assertEquals("NoSchedule", taints.path(0).path("effect").asText(), fresh::toString);
    }

    @Test
    @Order(10)
    void aBoundClaimGrowsOnlyWhenItsStorageClassAllowsExpansion() throws Exception {
        kubectl.ok("create", "namespace", "resize");
        kubectl.ok("apply", "-f", write("resize-classes.yaml", """
                apiVersion: storage.k8s.io/v1
                kind: StorageClass
                metadata: {name: fixed}
                provisioner: example.com/disk
                ---
                apiVersion: storage.k8s.io/v1
                kind: StorageClass
                metadata: {name: elastic}
                provisioner: example.com/disk
                allowVolumeExpansion: true
                """).toString());
        for (String claim : new String[] {"fixed", "elastic"}) {
            kubectl.ok("create", "-f", write("resize-" + claim + ".yaml", "apiVersion: v1\nkind: PersistentVolumeClaim\n"
                    + "metadata: {name: " + claim + ", namespace: resize}\nspec:\n  storageClassName: " + claim + "\n"
                    + "  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n").toString());
            kubectl.ok("patch", "pvc", claim, "-n", "resize", "--subresource=status", "-p",
                    "{\"status\":{\"phase\":\"Bound\",\"capacity\":{\"storage\":\"1Gi\"}}}");
        }
        String grow = "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}";

        Result fixed = kubectl.run("patch", "pvc", "fixed", "-n", "resize", "-p", grow);
        assertEquals("Error from server (Forbidden): persistentvolumeclaims \"fixed\" is forbidden: only dynamically "
                + "provisioned pvc can be resized and the storageclass that provisions the pvc must support resize",
                fixed.stderr().trim(), fixed::toString);
        await("the elastic claim's growth", () -> kubectl.run("patch", "pvc", "elastic", "-n", "resize", "-p", grow),
                r -> r.exitCode() == 0);
        assertEquals("2Gi", kubectl.ok("get", "pvc", "elastic", "-n", "resize", "-o",
                "jsonpath={.spec.resources.requests.storage}").stdout());
        Result shrink = kubectl.run("patch", "pvc", "elastic", "-n", "resize", "-p",
                "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"512Mi\"}}}}");
        assertTrue(shrink.stderr().contains("spec.resources.requests.storage: Forbidden: field can not be less than "
                + "status.capacity"), shrink::toString);
    }

    @Test
    @Order(11)
    void limitedResourcesNeedACoveringQuota() throws Exception {
        kubectl.ok("create", "namespace", "limited");
        kubectl.ok("create", "priorityclass", "cluster-services", "--value=100");
        Path claim = write("gold-claim.yaml", "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, "
                + "namespace: limited}\nspec:\n  storageClassName: gold\n  accessModes: [ReadWriteOnce]\n"
                + "  resources: {requests: {storage: 1Gi}}\n");
        Result uncovered = kubectl.run("create", "-f", claim.toString());
        assertEquals("Error from server (Forbidden): error when creating \"" + claim + "\": persistentvolumeclaims \"data\" "
                + "is forbidden: insufficient quota to consume: gold.storageclass.storage.k8s.io/requests.storage",
                uncovered.stderr().trim(), uncovered::toString);
        String overrides = "--overrides={\"spec\":{\"priorityClassName\":\"cluster-services\"}}";
        Result scoped = await("the priority class", () -> kubectl.run("run", "critical", "-n", "limited", "--image=nginx",
                overrides), r -> !r.stderr().contains("no PriorityClass"));
        assertTrue(scoped.stderr().contains("insufficient quota to match these scopes: [{PriorityClass In "
                + "[cluster-services]}]"), scoped::toString);

        kubectl.ok("apply", "-f", write("covering-quotas.yaml", """
                apiVersion: v1
                kind: ResourceQuota
                metadata: {name: gold, namespace: limited}
                spec:
                  hard: {gold.storageclass.storage.k8s.io/requests.storage: 10Gi}
                ---
                apiVersion: v1
                kind: ResourceQuota
                metadata: {name: critical, namespace: limited}
                spec:
                  hard: {pods: "10"}
                  scopeSelector:
                    matchExpressions:
                    - {scopeName: PriorityClass, operator: In, values: [cluster-services]}
                """).toString());
        await("the covered claim", () -> kubectl.run("create", "-f", claim.toString()), r -> r.exitCode() == 0);
        await("the covered pod", () -> kubectl.run("run", "critical", "-n", "limited", "--image=nginx", overrides),
                r -> r.exitCode() == 0);
    }

    @Test
    @Order(12)
    void onlyOnePriorityClassIsTheGlobalDefault() throws Exception {
        kubectl.ok("create", "priorityclass", "low", "--value=10", "--global-default");
        // The plugin reads the classes from an informer: a dry run shows when it has seen the first default.
        await("the first default in the informer", () -> kubectl.run("create", "priorityclass", "second", "--value=20",
                "--global-default", "--dry-run=server"), r -> r.exitCode() != 0);
        Result second = kubectl.run("create", "priorityclass", "second", "--value=20", "--global-default");
        assertTrue(second.stderr().contains("priorityclasses.scheduling.k8s.io \"second\" is forbidden: PriorityClass low "
                + "is already marked as default. Only one default can exist"), second::toString);
        kubectl.ok("delete", "priorityclass", "low");
    }
}
