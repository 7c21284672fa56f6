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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The apps/v1 plugin (resource-apps) in the built distribution, driven by the real kubectl: create,
 * get with kube's columns, defaults in {@code -o yaml}, scale through the scale subresource,
 * {@code get all} and short names, a 422 for a selector that does not match its template, delete,
 * and the plugin taken out of {@code plugins/} and put back while the server runs. The methods run
 * in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAppsIT extends KubectlSuite {
    KubectlAppsIT() {
        super("apps", "deploy");
    }

    @Test
    @Order(1)
    void createDeploymentAndGetItWithKubesColumns() throws Exception {
        assertEquals("deployment.apps/web created",
                kubectl.ok("create", "deployment", "web", "--image=nginx", "--replicas=2").stdout().trim());

        List<String> lines = kubectl.ok("get", "deploy").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("web\\s+0/2\\s+0\\s+0\\s+\\d+s"), lines::toString);

        List<String> wide = kubectl.ok("get", "deployments.apps", "web", "-o", "wide").stdout().lines().toList();
        assertTrue(wide.get(0).matches("NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE\\s+CONTAINERS\\s+IMAGES\\s+SELECTOR"),
                wide::toString);
        assertTrue(wide.get(1).matches("web\\s+0/2\\s+0\\s+0\\s+\\d+s\\s+nginx\\s+nginx\\s+app=web"), wide::toString);
    }

    @Test
    @Order(2)
    void getAsYamlShowsKubesDefaults() throws Exception {
        JsonNode d = YAML.readTree(kubectl.ok("get", "deploy", "web", "-o", "yaml").stdout());

        assertEquals(1, d.path("metadata").path("generation").asInt(), d::toString);
        JsonNode spec = d.path("spec");
        assertEquals(2, spec.path("replicas").asInt());
        assertEquals("RollingUpdate", spec.path("strategy").path("type").asText(), d::toString);
        assertEquals("25%", spec.path("strategy").path("rollingUpdate").path("maxUnavailable").asText(), d::toString);
        assertEquals("25%", spec.path("strategy").path("rollingUpdate").path("maxSurge").asText(), d::toString);
        assertEquals(10, spec.path("revisionHistoryLimit").asInt(), d::toString);
        assertEquals(600, spec.path("progressDeadlineSeconds").asInt(), d::toString);
        JsonNode pod = spec.path("template").path("spec");
        assertEquals("Always", pod.path("restartPolicy").asText(), d::toString);
        assertEquals("ClusterFirst", pod.path("dnsPolicy").asText(), d::toString);
        assertEquals(30, pod.path("terminationGracePeriodSeconds").asInt(), d::toString);
        assertEquals("default-scheduler", pod.path("schedulerName").asText(), d::toString);
        JsonNode container = pod.path("containers").get(0);
        assertEquals("Always", container.path("imagePullPolicy").asText(), d::toString);
        assertEquals("/dev/termination-log", container.path("terminationMessagePath").asText(), d::toString);
        assertEquals("File", container.path("terminationMessagePolicy").asText(), d::toString);
    }

    @Test
    @Order(3)
    void scaleGoesThroughTheScaleSubresource() throws Exception {
        assertEquals("deployment.apps/web scaled", kubectl.ok("scale", "deployment", "web", "--replicas=5").stdout().trim());

        JsonNode d = JSON.readTree(kubectl.ok("get", "deploy", "web", "-o", "json").stdout());
        assertEquals(5, d.path("spec").path("replicas").asInt(), d::toString);
        assertEquals(2, d.path("metadata").path("generation").asInt(), "scaling changes the spec: " + d);
        assertTrue(kubectl.ok("get", "deploy", "web").stdout().lines().anyMatch(l -> l.matches("web\\s+0/5\\s+.*")));

        JsonNode scale = JSON.readTree(kubectl.ok("get", "--raw",
                "/apis/apps/v1/namespaces/default/deployments/web/scale").stdout());
        assertEquals("autoscaling/v1", scale.path("apiVersion").asText(), scale::toString);
        assertEquals("Scale", scale.path("kind").asText(), scale::toString);
        assertEquals(5, scale.path("spec").path("replicas").asInt(), scale::toString);
        assertEquals("app=web", scale.path("status").path("selector").asText(), scale::toString);
        assertEquals(d.path("metadata").path("uid").asText(), scale.path("metadata").path("uid").asText());

        Result negative = kubectl.run("scale", "deployment", "web", "--replicas=-1");
        assertNotEquals(0, negative.exitCode(), negative::toString);
        Result missing = kubectl.run("scale", "deployment", "nope", "--replicas=1");
        assertNotEquals(0, missing.exitCode(), missing::toString);
        assertTrue(missing.stderr().contains("deployments.apps \"nope\" not found"), missing::toString);
    }

    @Test
    @Order(4)
    void getAllListsEveryWorkloadByShortName() throws Exception {
        Path file = work.resolve("workloads.yaml");
        Files.writeString(file, workload("StatefulSet", "db", "") + "---\n" + workload("DaemonSet", "agent", "")
                + "---\n" + workload("ReplicaSet", "cache", "  replicas: 3\n"), StandardCharsets.UTF_8);
        Result applied = kubectl.ok("apply", "-f", file.toString());
        assertTrue(applied.stdout().contains("statefulset.apps/db created"), applied::toString);

        String all = kubectl.ok("get", "all").stdout();
        for (String name : List.of("deployment.apps/web", "statefulset.apps/db", "daemonset.apps/agent", "replicaset.apps/cache")) {
            assertTrue(all.lines().anyMatch(l -> l.startsWith(name + " ")), name + " in\n" + all);
        }
        assertTrue(all.lines().anyMatch(l -> l.matches("NAME\\s+DESIRED\\s+CURRENT\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+"
                + "NODE SELECTOR\\s+AGE")), all);

        assertTrue(kubectl.ok("get", "sts").stdout().lines().anyMatch(l -> l.matches("db\\s+0/1\\s+\\d+s")));
        assertTrue(kubectl.ok("get", "ds").stdout().lines().anyMatch(l -> l.matches("agent(\\s+0){5}\\s+<none>\\s+\\d+s")));
        assertTrue(kubectl.ok("get", "rs").stdout().lines().anyMatch(l -> l.matches("cache\\s+3\\s+0\\s+0\\s+\\d+s")));

        Result resources = kubectl.ok("api-resources", "--api-group=apps");
        assertTrue(resources.stdout().lines().anyMatch(l -> l.matches("deployments\\s+deploy\\s+apps/v1\\s+true\\s+Deployment")),
                resources::toString);
        assertTrue(resources.stdout().lines().anyMatch(l -> l.matches("controllerrevisions\\s+apps/v1\\s+true\\s+ControllerRevision")),
                resources::toString);
    }

    @Test
    @Order(5)
    void aSelectorThatDoesNotMatchItsTemplateIs422() throws Exception {
        Path file = work.resolve("bad.yaml");
        Files.writeString(file, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bad\nspec:\n  selector:\n"
                + "    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: api\n    spec:\n"
                + "      containers:\n      - name: c\n        image: nginx\n", StandardCharsets.UTF_8);

        Result r = kubectl.run("create", "-f", file.toString());

        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The Deployment \"bad\" is invalid: spec.template.metadata.labels: Invalid value: "
                + "map[string]string{\"app\":\"api\"}: `selector` does not match template `labels`"), r::toString);

        Result absent = kubectl.run("get", "deploy", "bad");
        assertTrue(absent.stderr().contains("NotFound"), absent::toString);
    }

    /**
     * kubectl apply and set image send strategic merge patches: with the apps/v1 schema the
     * container is merged on its name, so what the patch does not mention (its ports) stays.
     */
    @Test
    @Order(6)
    void applyAndSetImageMergeContainersOnTheirName() throws Exception {
        Path file = work.resolve("api.yaml");
        String manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  selector:\n"
                + "    matchLabels:\n      app: api\n  template:\n    metadata:\n      labels:\n        app: api\n    spec:\n"
                + "      containers:\n      - name: api\n        image: IMAGE\n        ports:\n        - containerPort: 8080\n"
                + "      - name: log\n        image: fluentd:1\n";
        Files.writeString(file, manifest.replace("IMAGE", "api:1"), StandardCharsets.UTF_8);
        kubectl.ok("apply", "-f", file.toString());
        Files.writeString(file, manifest.replace("IMAGE", "api:2"), StandardCharsets.UTF_8);
        assertEquals("deployment.apps/api configured", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        kubectl.ok("set", "image", "deployment/api", "log=fluentd:2");

        JsonNode containers = JSON.readTree(kubectl.ok("get", "deploy", "api", "-o", "json").stdout())
                .path("spec").path("template").path("spec").path("containers");
        assertEquals(2, containers.size(), containers::toString);
        assertEquals("api:2", containers.path(0).path("image").asText(), containers::toString);
        assertEquals(8080, containers.path(0).path("ports").path(0).path("containerPort").asInt(), containers::toString);
        assertEquals("TCP", containers.path(0).path("ports").path(0).path("protocol").asText(), containers::toString);
        assertEquals("fluentd:2", containers.path(1).path("image").asText(), containers::toString);
        kubectl.ok("delete", "deploy", "api");
    }

    @Test
    @Order(7)
    void deleteDeployment() throws Exception {
        assertEquals("deployment.apps \"web\" deleted", kubectl.ok("delete", "deploy", "web").stdout().trim());
        Result gone = kubectl.run("get", "deploy", "web");
        assertNotEquals(0, gone.exitCode(), gone::toString);
        assertTrue(gone.stderr().contains("Error from server (NotFound): deployments.apps \"web\" not found"), gone::toString);
    }

    @Test
    @Order(8)
    void resourceAppsIsHotSwappedThroughPluginsFolder() throws Exception {
        // 1. out: FileInstall uninstalls the bundle, the apps group leaves discovery
        Path aside = server.takePluginOut("resource-apps", work.resolve("aside"));
        await("deployments gone from kubectl api-resources", () -> kubectl.run("api-resources"),
                r -> r.exitCode() == 0 && r.stdout().lines().noneMatch(l -> l.startsWith("deployments ")));
        Result get = kubectl.run("get", "deploy");
        assertNotEquals(0, get.exitCode(), get::toString);
        kubectl.ok("get", "cm"); // the core group stays
        assertFalse(openAPIv3Paths().has("apis/apps/v1"), "apps/v1 gone from the OpenAPI v3 index");
        JsonNode definitions = JSON.readTree(kubectl.ok("get", "--raw", "/openapi/v2").stdout()).path("definitions");
        assertFalse(definitions.has("io.k8s.api.apps.v1.Deployment"), "Deployment gone from OpenAPI v2");
        assertTrue(definitions.has("io.k8s.api.core.v1.ConfigMap"), "ConfigMap still in OpenAPI v2");

        // 2. back: installed again, with the statefulset stored before
        server.putPluginBack(aside);
        await("deployments back in kubectl api-resources", () -> kubectl.run("api-resources"),
                r -> r.exitCode() == 0 && r.stdout().lines().anyMatch(l -> l.startsWith("deployments ")));
        Result sts = await("statefulset db served again", () -> kubectl.run("get", "sts", "db", "-o", "name"),
                r -> r.exitCode() == 0);
        assertEquals("statefulset.apps/db", sts.stdout().trim());
        assertTrue(openAPIv3Paths().has("apis/apps/v1"), "apps/v1 back in the OpenAPI v3 index");
        assertTrue(JSON.readTree(kubectl.ok("get", "--raw", "/openapi/v2").stdout()).path("definitions")
                .has("io.k8s.api.apps.v1.Deployment"), "Deployment back in OpenAPI v2");
        assertTrue(kubectl.ok("explain", "deployment.spec.strategy").stdout().contains("RollingUpdate"));
    }

    /**
     * A deployment owning a replica set owning a pod, as kube's controllers would have made them
     * (no controller runs here, so the test writes the owner references), deleted with each
     * propagation policy: background (kubectl's default), foreground and orphan.
     */
    @Test
    @Order(9)
    void aDeploymentReplicaSetPodChainIsDeletedWithEachPropagationPolicy() throws Exception {
        // Background: the deployment goes at once, the garbage collector takes the replica set, then the pod.
        chain("bg");
        kubectl.ok("delete", "deployment", "bg");
        await("the garbage collector deletes replica set bg-rs", () -> kubectl.run("get", "rs", "bg-rs"),
                r -> r.stderr().contains("(NotFound)"));
        await("the garbage collector deletes pod bg-pod", () -> kubectl.run("get", "pod", "bg-pod"),
                r -> r.stderr().contains("(NotFound)"));

        // Foreground: kubectl waits for the deployment, which goes only after its dependents.
        chain("fg");
        Result fg = kubectl.ok("delete", "deployment", "fg", "--cascade=foreground", "--timeout=30s");
        assertEquals("deployment.apps \"fg\" deleted", fg.stdout().trim(), fg::toString);
        assertTrue(kubectl.run("get", "rs", "fg-rs").stderr().contains("(NotFound)"), "the replica set went first");
        assertTrue(kubectl.run("get", "pod", "fg-pod").stderr().contains("(NotFound)"), "the pod went first");

        // Orphan: the deployment goes, the replica set stays without its reference, the pod keeps its own.
        chain("or");
        Result or = kubectl.ok("delete", "deployment", "or", "--cascade=orphan", "--timeout=30s");
        assertEquals("deployment.apps \"or\" deleted", or.stdout().trim(), or::toString);
        JsonNode rs = JSON.readTree(kubectl.ok("get", "rs", "or-rs", "-o", "json").stdout()).path("metadata");
        assertTrue(rs.path("ownerReferences").isMissingNode(), rs::toString);
        JsonNode pod = JSON.readTree(kubectl.ok("get", "pod", "or-pod", "-o", "json").stdout()).path("metadata");
        assertEquals("or-rs", pod.path("ownerReferences").path(0).path("name").asText(), pod::toString);
        kubectl.ok("delete", "rs", "or-rs", "--cascade=foreground", "--timeout=30s");
        assertTrue(kubectl.run("get", "pod", "or-pod").stderr().contains("(NotFound)"), "the pod went with its owner");
    }

    /** Deployment {@code name}, replica set {@code name-rs} it controls, and pod {@code name-pod} that one controls. */
    private void chain(String name) throws Exception {
        kubectl.ok("create", "deployment", name, "--image=nginx");
        JsonNode deployment = JSON.readTree(kubectl.ok("get", "deploy", name, "-o", "json").stdout());
        String rs = workload("ReplicaSet", name + "-rs", "  replicas: 1\n").replace("metadata:\n  name: " + name + "-rs\n",
                "metadata:\n  name: " + name + "-rs\n" + controlledBy(deployment));
        kubectl.ok("create", "-f", write(name + "-rs.yaml", rs).toString());
        JsonNode replicaSet = JSON.readTree(kubectl.ok("get", "rs", name + "-rs", "-o", "json").stdout());
        String pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "-pod\n" + controlledBy(replicaSet)
                + "spec:\n  containers:\n  - name: c\n    image: nginx:1.27\n";
        kubectl.ok("create", "-f", write(name + "-pod.yaml", pod).toString());
    }

    /** The owner reference kube's controllers put on what they create. */
    private static String controlledBy(JsonNode owner) {
        return "  ownerReferences:\n  - apiVersion: " + owner.path("apiVersion").asText() + "\n    kind: "
                + owner.path("kind").asText() + "\n    name: " + owner.path("metadata").path("name").asText()
                + "\n    uid: " + owner.path("metadata").path("uid").asText()
                + "\n    controller: true\n    blockOwnerDeletion: true\n";
    }

    private JsonNode openAPIv3Paths() throws Exception {
        return JSON.readTree(kubectl.ok("get", "--raw", "/openapi/v3").stdout()).path("paths");
    }

    /** A workload of {@code kind} selecting {@code app=<name>}, with {@code extraSpec} lines added to its spec. */
    private static String workload(String kind, String name, String extraSpec) {
        return "apiVersion: apps/v1\nkind: " + kind + "\nmetadata:\n  name: " + name + "\nspec:\n" + extraSpec
                + "  selector:\n    matchLabels:\n      app: " + name + "\n  template:\n    metadata:\n      labels:\n"
                + "        app: " + name + "\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.27\n";
    }
}
