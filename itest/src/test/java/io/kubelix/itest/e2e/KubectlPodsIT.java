package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core/v1 workloads of resource-core in the built distribution, driven by the real kubectl: pods
 * ({@code run}, kube's columns and defaults, field selectors, validation, binding, eviction, graceful
 * and immediate deletion), replication controllers (create, scale), pod templates, nodes (create,
 * cordon, drain), {@code get all} and {@code explain}. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlPodsIT extends KubectlSuite {
    private static final String PODS = "/api/v1/namespaces/default/pods/";

    KubectlPodsIT() {
        super("pods", "pods");
    }

    @Test
    @Order(1)
    void runAPodAndGetItWithKubesColumns() throws Exception {
        assertEquals("pod/nginx created", kubectl.ok("run", "nginx", "--image=nginx").stdout().trim());

        List<String> lines = kubectl.ok("get", "pods").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("nginx\\s+0/1\\s+Pending\\s+0\\s+\\d+s"), lines::toString);

        List<String> wide = kubectl.ok("get", "po", "nginx", "-o", "wide").stdout().lines().toList();
        assertTrue(wide.get(0).matches("NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\s+IP\\s+NODE\\s+NOMINATED NODE\\s+"
                + "READINESS GATES"), wide::toString);
        assertTrue(wide.get(1).matches("nginx\\s+0/1\\s+Pending\\s+0\\s+\\d+s(\\s+<none>){4}"), wide::toString);
    }

    @Test
    @Order(2)
    void getAsYamlShowsKubesDefaults() throws Exception {
        JsonNode pod = YAML.readTree(kubectl.ok("get", "pod", "nginx", "-o", "yaml").stdout());

        assertEquals("nginx", pod.path("metadata").path("labels").path("run").asText(), pod::toString);
        JsonNode spec = pod.path("spec");
        assertEquals("Always", spec.path("restartPolicy").asText(), pod::toString);
        assertEquals("ClusterFirst", spec.path("dnsPolicy").asText(), pod::toString);
        assertEquals(30, spec.path("terminationGracePeriodSeconds").asInt(), pod::toString);
        assertEquals("default-scheduler", spec.path("schedulerName").asText(), pod::toString);
        assertTrue(spec.path("securityContext").isObject(), pod::toString);
        assertTrue(spec.path("enableServiceLinks").asBoolean(), pod::toString);
        assertEquals(0, spec.path("priority").asInt(-1), pod::toString);
        assertEquals(2, spec.path("tolerations").size(), pod::toString);
        assertEquals(300, spec.path("tolerations").path(0).path("tolerationSeconds").asInt(), pod::toString);
        JsonNode container = spec.path("containers").get(0);
        assertEquals("Always", container.path("imagePullPolicy").asText(), pod::toString);
        assertEquals("/dev/termination-log", container.path("terminationMessagePath").asText(), pod::toString);
        assertEquals("File", container.path("terminationMessagePolicy").asText(), pod::toString);
        assertEquals("Pending", pod.path("status").path("phase").asText(), pod::toString);
        assertEquals("BestEffort", pod.path("status").path("qosClass").asText(), pod::toString);
    }

    @Test
    @Order(3)
    void fieldSelectorsOnPods() throws Exception {
        assertEquals("pod/nginx", kubectl.ok("get", "po", "--field-selector=status.phase=Pending", "-o", "name").stdout().trim());
        assertEquals("pod/nginx", kubectl.ok("get", "pods", "--field-selector=spec.restartPolicy=Always,spec.nodeName=",
                "-o", "name").stdout().trim());
        Result none = kubectl.ok("get", "po", "--field-selector=status.phase=Running");
        assertTrue(none.stdout().isBlank() && none.stderr().contains("No resources found"), none::toString);
        Result unknown = kubectl.run("get", "po", "--field-selector=spec.unknown=x");
        assertNotEquals(0, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.stderr().contains("field label not supported: spec.unknown"), unknown::toString);
    }

    @Test
    @Order(4)
    void aPodWithoutContainersIs422WithKubesMessage() throws Exception {
        Path file = work.resolve("empty.yaml");
        Files.writeString(file, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: empty\nspec:\n  containers: []\n",
                StandardCharsets.UTF_8);

        Result r = kubectl.run("create", "-f", file.toString());

        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The Pod \"empty\" is invalid: spec.containers: Required value"), r::toString);
        Path json = work.resolve("empty.json");
        Files.writeString(json, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"empty\"},"
                + "\"spec\":{\"containers\":[]}}", StandardCharsets.UTF_8);
        Result raw = kubectl.run("create", "--raw", PODS.substring(0, PODS.length() - 1), "-f", json.toString(), "-v=6");
        assertNotEquals(0, raw.exitCode(), raw::toString);
        assertTrue(raw.stderr().contains(" 422 Unprocessable Entity"), raw::toString);
        assertTrue(raw.stderr().contains("The Pod \"empty\" is invalid: spec.containers: Required value"), raw::toString);
    }

    @Test
    @Order(5)
    void onlyTheImageOfARunningPodCanChange() throws Exception {
        assertEquals("pod/nginx image updated", kubectl.ok("set", "image", "pod/nginx", "nginx=nginx:1.27").stdout().trim());
        JsonNode pod = JSON.readTree(kubectl.ok("get", "pod", "nginx", "-o", "json").stdout());
        assertEquals("nginx:1.27", pod.path("spec").path("containers").path(0).path("image").asText(), pod::toString);

        Result r = kubectl.run("patch", "pod", "nginx", "-p",
                "{\"spec\":{\"containers\":[{\"name\":\"nginx\",\"ports\":[{\"containerPort\":80}]}]}}");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The Pod \"nginx\" is invalid: spec: Forbidden: pod updates may not change fields "
                + "other than `spec.containers[*].image`"), r::toString);
    }

    /** pods/binding, and a kubelet's watch of its node's pods (indexed by spec.nodeName) seeing the pod arrive. */
    @Test
    @Order(6)
    void bindingAssignsTheNodeOnce() throws Exception {
        Path binding = work.resolve("binding.json");
        Files.writeString(binding, "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"nginx\"},"
                + "\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"node-1\"}}", StandardCharsets.UTF_8);

        // What a kubelet does: watch the pods of its node (spec.nodeName, the field the watch cache indexes).
        Path watchOutput = work.resolve("node-1-pods.out");
        Process watch = kubectl.background(watchOutput, "get", "pods", "-w", "--field-selector=spec.nodeName=node-1",
                "-o", "name", "-v=6");
        try {
            await("the watch of node-1's pods open", () -> readQuietly(watchOutput), out -> out.lines().anyMatch(
                    l -> l.contains("fieldSelector=spec.nodeName%3Dnode-1") && l.contains("watch=true") && l.contains(" 200 OK")));

            JsonNode status = JSON.readTree(kubectl.ok("create", "--raw", PODS + "nginx/binding", "-f", binding.toString())
                    .stdout());
            assertEquals("Success", status.path("status").asText(), status::toString);

            await("the bound pod reaching the node's watch", () -> readQuietly(watchOutput),
                    out -> out.lines().anyMatch(l -> l.equals("pod/nginx")));
        } finally {
            watch.destroy();
            if (!watch.waitFor(10, TimeUnit.SECONDS)) {
                watch.destroyForcibly();
            }
        }

        List<String> wide = kubectl.ok("get", "pod", "nginx", "-o", "wide").stdout().lines().toList();
        assertTrue(wide.get(1).matches("nginx\\s+0/1\\s+Pending\\s+0\\s+\\d+s\\s+<none>\\s+node-1\\s+<none>\\s+<none>"),
                wide::toString);
        assertEquals("pod/nginx", kubectl.ok("get", "pods", "--field-selector=spec.nodeName=node-1", "-o", "name")
                .stdout().trim());
        JsonNode pod = JSON.readTree(kubectl.ok("get", "pod", "nginx", "-o", "json").stdout());
        assertEquals("PodScheduled", pod.path("status").path("conditions").path(0).path("type").asText(), pod::toString);

        Result again = kubectl.run("create", "--raw", PODS + "nginx/binding", "-f", binding.toString());
        assertNotEquals(0, again.exitCode(), again::toString);
        assertTrue(again.stderr().contains("Conflict") || again.stderr().contains("already assigned"), again::toString);
        JsonNode raw = JSON.readTree(kubectl.ok("get", "--raw", "/api/v1").stdout());
        boolean listed = false;
        for (JsonNode r : raw.path("resources")) {
            if (r.path("name").asText().equals("pods/binding")) {
                assertEquals("[\"create\"]", r.path("verbs").toString(), r::toString);
                listed = true;
            }
        }
        assertTrue(listed, raw::toString);
    }

    @Test
    @Order(7)
    void aBoundPodIsDeletedGracefullyAnUnboundOneAtOnce() throws Exception {
        Result marked = kubectl.ok("delete", "pod", "nginx", "--wait=false");
        assertEquals("pod \"nginx\" deleted", marked.stdout().trim(), marked::toString);
        JsonNode pod = JSON.readTree(kubectl.ok("get", "pod", "nginx", "-o", "json").stdout());
        assertFalse(pod.path("metadata").path("deletionTimestamp").isMissingNode(), pod::toString);
        assertEquals(30, pod.path("metadata").path("deletionGracePeriodSeconds").asInt(), pod::toString);
        assertTrue(kubectl.ok("get", "pod", "nginx").stdout().lines().anyMatch(l -> l.matches("nginx\\s+0/1\\s+Terminating\\s+.*")));

        kubectl.ok("delete", "pod", "nginx", "--grace-period=0", "--force");
        Result gone = kubectl.run("get", "pod", "nginx");
        assertTrue(gone.stderr().contains("pods \"nginx\" not found"), gone::toString);

        kubectl.ok("run", "once", "--image=busybox:1.36");
        assertEquals("pod \"once\" deleted", kubectl.ok("delete", "pod", "once").stdout().trim());
        assertTrue(kubectl.run("get", "pod", "once").stderr().contains("pods \"once\" not found"));
    }

    @Test
    @Order(8)
    void anEvictionDeletesThePod() throws Exception {
        kubectl.ok("run", "evictme", "--image=busybox:1.36");
        Path eviction = work.resolve("eviction.json");
        Files.writeString(eviction, "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"evictme\"}}",
                StandardCharsets.UTF_8);

        JsonNode status = JSON.readTree(kubectl.ok("create", "--raw", PODS + "evictme/eviction", "-f", eviction.toString())
                .stdout());

        assertEquals("Success", status.path("status").asText(), status::toString);
        assertTrue(kubectl.run("get", "pod", "evictme").stderr().contains("not found"), "an unbound pod goes at once");
        Result missing = kubectl.run("create", "--raw", PODS + "evictme/eviction", "-f", eviction.toString());
        assertNotEquals(0, missing.exitCode(), missing::toString);
    }

    @Test
    @Order(9)
    void replicationControllersAreCreatedAndScaled() throws Exception {
        Path file = work.resolve("rc.yaml");
        Files.writeString(file, "apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: web\nspec:\n  replicas: 2\n"
                + "  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n"
                + "      - name: nginx\n        image: nginx:1.27\n", StandardCharsets.UTF_8);
        assertEquals("replicationcontroller/web created", kubectl.ok("create", "-f", file.toString()).stdout().trim());

        List<String> lines = kubectl.ok("get", "rc").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+DESIRED\\s+CURRENT\\s+READY\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("web\\s+2\\s+0\\s+0\\s+\\d+s"), lines::toString);
        List<String> wide = kubectl.ok("get", "rc", "web", "-o", "wide").stdout().lines().toList();
        assertTrue(wide.get(1).matches("web\\s+2\\s+0\\s+0\\s+\\d+s\\s+nginx\\s+nginx:1.27\\s+app=web"), wide::toString);

        assertEquals("replicationcontroller/web scaled", kubectl.ok("scale", "rc", "web", "--replicas=4").stdout().trim());
        JsonNode rc = JSON.readTree(kubectl.ok("get", "rc", "web", "-o", "json").stdout());
        assertEquals(4, rc.path("spec").path("replicas").asInt(), rc::toString);
        assertEquals("web", rc.path("spec").path("selector").path("app").asText(), "selector defaulted: " + rc);
        assertEquals(2, rc.path("metadata").path("generation").asInt(), rc::toString);
        JsonNode scale = JSON.readTree(kubectl.ok("get", "--raw", "/api/v1/namespaces/default/replicationcontrollers/web/scale")
                .stdout());
        assertEquals("app=web", scale.path("status").path("selector").asText(), scale::toString);
    }

    @Test
    @Order(10)
    void podTemplates() throws Exception {
        Path file = work.resolve("podtemplate.yaml");
        Files.writeString(file, "apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: tpl\ntemplate:\n  metadata:\n"
                + "    labels:\n      tier: batch\n  spec:\n    containers:\n    - name: job\n      image: busybox:1.36\n",
                StandardCharsets.UTF_8);
        kubectl.ok("create", "-f", file.toString());
        List<String> lines = kubectl.ok("get", "podtemplates").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+CONTAINERS\\s+IMAGES\\s+POD LABELS"), lines::toString);
        assertTrue(lines.get(1).matches("tpl\\s+job\\s+busybox:1.36\\s+tier=batch"), lines::toString);
    }

    @Test
    @Order(11)
    void nodesAreListedWithTheirStatusAndCordoned() throws Exception {
        Path file = work.resolve("node.yaml");
        Files.writeString(file, "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n  labels:\n"
                + "    node-role.kubernetes.io/control-plane: \"\"\nspec:\n  podCIDR: 10.244.0.0/24\nstatus:\n"
                + "  conditions:\n  - type: Ready\n    status: \"True\"\n  addresses:\n  - type: InternalIP\n"
                + "    address: 192.168.1.10\n  nodeInfo:\n    kubeletVersion: v1.32.0\n    osImage: Debian GNU/Linux 12\n"
                + "    kernelVersion: 6.1.0\n    containerRuntimeVersion: containerd://1.7.0\n    architecture: amd64\n"
                + "    bootID: b\n    kubeProxyVersion: v1.32.0\n    machineID: m\n    operatingSystem: linux\n"
                + "    systemUUID: s\n", StandardCharsets.UTF_8);
        assertEquals("node/node-1 created", kubectl.ok("create", "-f", file.toString()).stdout().trim());

        List<String> lines = kubectl.ok("get", "nodes").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+STATUS\\s+ROLES\\s+AGE\\s+VERSION"), lines::toString);
        assertTrue(lines.get(1).matches("node-1\\s+Ready\\s+control-plane\\s+\\d+s\\s+v1.32.0"), lines::toString);
        List<String> wide = kubectl.ok("get", "no", "-o", "wide").stdout().lines().toList();
        assertTrue(wide.get(1).matches("node-1\\s+Ready\\s+control-plane\\s+\\d+s\\s+v1.32.0\\s+192.168.1.10\\s+<none>\\s+"
                + "Debian GNU/Linux 12\\s+6.1.0\\s+containerd://1.7.0"), wide::toString);

        assertEquals("node/node-1 cordoned", kubectl.ok("cordon", "node-1").stdout().trim());
        assertTrue(kubectl.ok("get", "nodes").stdout().lines().anyMatch(l -> l.matches("node-1\\s+Ready,SchedulingDisabled\\s+.*")));
        assertEquals("node/node-1", kubectl.ok("get", "nodes", "--field-selector=spec.unschedulable=true", "-o", "name")
                .stdout().trim());
        Result namespaced = kubectl.run("get", "--raw", "/api/v1/namespaces/default/nodes/node-1");
        assertNotEquals(0, namespaced.exitCode(), "nodes are cluster-scoped: " + namespaced);
    }

    /** kubectl drain lists the node's pods by spec.nodeName and evicts each through pods/eviction. */
    @Test
    @Order(12)
    void drainEvictsTheNodesPods() throws Exception {
        kubectl.ok("run", "worker", "--image=busybox:1.36");
        Path binding = work.resolve("worker-binding.json");
        Files.writeString(binding, "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"worker\"},"
                + "\"target\":{\"name\":\"node-1\"}}", StandardCharsets.UTF_8);
        kubectl.ok("create", "--raw", PODS + "worker/binding", "-f", binding.toString());
        String described = kubectl.ok("describe", "pod", "worker").stdout();
        assertTrue(described.lines().anyMatch(l -> l.matches("Node:\\s+node-1/.*")), described);
        assertTrue(described.lines().anyMatch(l -> l.matches("QoS Class:\\s+BestEffort")), described);

        Result drained = kubectl.ok("drain", "node-1", "--force", "--grace-period=0", "--ignore-daemonsets");

        String output = drained.stdout() + drained.stderr();
        assertTrue(output.contains("pod/worker evicted"), drained::toString);
        assertTrue(output.contains("node/node-1 drained"), drained::toString);
        assertTrue(kubectl.run("get", "pod", "worker").stderr().contains("not found"));
    }

    @Test
    @Order(13)
    void getAllAndApiResourcesIncludePodsAndReplicationControllers() throws Exception {
        kubectl.ok("run", "api", "--image=nginx:1.27");
        String all = kubectl.ok("get", "all").stdout();
        assertTrue(all.lines().anyMatch(l -> l.startsWith("pod/api ")), all);
        assertTrue(all.lines().anyMatch(l -> l.startsWith("replicationcontroller/web ")), all);

        String resources = kubectl.ok("api-resources", "--api-group=").stdout();
        for (String row : List.of("pods\\s+po\\s+v1\\s+true\\s+Pod", "replicationcontrollers\\s+rc\\s+v1\\s+true\\s+"
                + "ReplicationController", "nodes\\s+no\\s+v1\\s+false\\s+Node", "podtemplates\\s+v1\\s+true\\s+PodTemplate")) {
            assertTrue(resources.lines().anyMatch(l -> l.matches(row)), row + " in\n" + resources);
        }
    }

    @Test
    @Order(14)
    void explainPodSpecContainers() throws Exception {
        String out = kubectl.ok("explain", "pod.spec.containers").stdout();
        assertTrue(out.contains("KIND:") && out.contains("Pod"), out);
        assertTrue(out.contains("FIELD: containers <[]Container>"), out);
        assertTrue(out.contains("List of containers belonging to the pod."), out);
        assertTrue(out.contains("image\t<string>") || out.contains("image <string>") || out.lines().anyMatch(
                l -> l.trim().startsWith("image") && l.contains("<string>")), out);
    }

    private static String readQuietly(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
