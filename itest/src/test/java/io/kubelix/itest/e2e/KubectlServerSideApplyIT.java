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
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server-side apply and managedFields through the real kubectl against the built distribution:
 * {@code apply --server-side} creating, changing and leaving alone an object, the managedFields
 * kubectl shows with {@code --show-managed-fields}, a conflict between two field managers and
 * {@code --force-conflicts}, a field dropped from the applied configuration removed, deployment
 * containers merged by name, the owners recorded for client-side apply, label, status and scale
 * writes, and the move from client-side to server-side apply. Each method works in its own namespace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlServerSideApplyIT extends KubectlSuite {
    KubectlServerSideApplyIT() {
        super("ssa", "deploy");
    }

    @Test
    @Order(1)
    void applyCreatesChangesAndLeavesUnchanged() throws Exception {
        String ns = namespace("ssa-basic");
        Path first = manifest("basic.yaml", configMap("settings", ns, "  a: \"1\"\n  b: \"2\"\n"));
        Result created = kubectl.ok("apply", "--server-side", "-f", first.toString());
        assertEquals("configmap/settings serverside-applied", created.stdout().trim(), created::toString);
        JsonNode cm = getJson(ns, "configmap", "settings");
        assertEquals("1", cm.path("data").path("a").asText(), cm::toString);

        // managedFields are hidden by default and shown with --show-managed-fields, in kube's shape
        assertFalse(cm.path("metadata").has("managedFields"), cm::toString);
        JsonNode shown = YAML.readTree(kubectl.ok("-n", ns, "get", "configmap", "settings", "-o", "yaml",
                "--show-managed-fields").stdout());
        JsonNode entries = shown.path("metadata").path("managedFields");
        assertEquals(1, entries.size(), shown::toString);
        JsonNode entry = entries.get(0);
        assertEquals("kubectl", entry.path("manager").asText());
        assertEquals("Apply", entry.path("operation").asText());
        assertEquals("v1", entry.path("apiVersion").asText());
        assertEquals("FieldsV1", entry.path("fieldsType").asText());
        assertTrue(entry.path("time").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), entry::toString);
        assertEquals("{\"f:data\":{\"f:a\":{},\"f:b\":{}}}", entry.path("fieldsV1").toString());

        // the same configuration again changes nothing, not even the resourceVersion
        String rv = cm.path("metadata").path("resourceVersion").asText();
        kubectl.ok("apply", "--server-side", "-f", first.toString());
        assertEquals(rv, getJson(ns, "configmap", "settings").path("metadata").path("resourceVersion").asText());

        // a changed value is configured; a key left out of the configuration is removed
        Path second = manifest("basic2.yaml", configMap("settings", ns, "  a: \"10\"\n"));
        kubectl.ok("apply", "--server-side", "-f", second.toString());
        cm = getJson(ns, "configmap", "settings");
        assertEquals("10", cm.path("data").path("a").asText(), cm::toString);
        assertFalse(cm.path("data").has("b"), cm::toString);
    }

    @Test
    @Order(2)
    void twoManagersConflictUntilForced() throws Exception {
        String ns = namespace("ssa-conflict");
        kubectl.ok("apply", "--server-side", "--field-manager=a", "-f",
                manifest("web-a.yaml", deployment(ns, 2, "nginx:1.25")).toString());
        Path other = manifest("web-b.yaml", deployment(ns, 3, "nginx:1.25"));
        Result conflict = kubectl.run("apply", "--server-side", "--field-manager=b", "-f", other.toString());
        assertNotEquals(0, conflict.exitCode(), conflict::toString);
        assertTrue(conflict.stderr().contains("Apply failed with 1 conflict: conflict with \"a\": .spec.replicas"),
                conflict::toString);
        assertTrue(conflict.stderr().contains("--force-conflicts"), conflict::toString);
        assertEquals(2, getJson(ns, "deploy", "web").path("spec").path("replicas").asInt());

        Result forced = kubectl.ok("apply", "--server-side", "--field-manager=b", "--force-conflicts", "-f", other.toString());
        assertEquals("deployment.apps/web serverside-applied", forced.stdout().trim(), forced::toString);
        JsonNode d = managed(ns, "deploy", "web");
        assertEquals(3, d.path("spec").path("replicas").asInt());
        assertTrue(entry(d, "b").path("fieldsV1").path("f:spec").has("f:replicas"), d::toString);
        assertFalse(entry(d, "a").path("fieldsV1").path("f:spec").has("f:replicas"), d::toString);
        // the image both apply with the same value is shared: no conflict, both own it
        String container = "k:{\"name\":\"web\"}";
        assertTrue(entry(d, "a").path("fieldsV1").path("f:spec").path("f:template").path("f:spec")
                .path("f:containers").path(container).has("f:image"), d::toString);
        assertTrue(entry(d, "b").path("fieldsV1").path("f:spec").path("f:template").path("f:spec")
                .path("f:containers").path(container).has("f:image"), d::toString);
    }

    @Test
    @Order(3)
    void containersMergeByNameAcrossManagers() throws Exception {
        String ns = namespace("ssa-merge");
        kubectl.ok("apply", "--server-side", "--field-manager=app", "-f",
                manifest("merge-app.yaml", deployment(ns, 1, "nginx:1.25")).toString());
        String sidecar = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: " + ns + "\n"
                + "spec:\n  template:\n    spec:\n      containers:\n      - name: sidecar\n        image: busybox:1\n"
                + "      - name: web\n        env:\n        - name: MODE\n          value: fast\n";
        kubectl.ok("apply", "--server-side", "--field-manager=mesh", "-f", manifest("merge-mesh.yaml", sidecar).toString());
        JsonNode containers = getJson(ns, "deploy", "web").path("spec").path("template").path("spec").path("containers");
        List<String> names = new ArrayList<>();
        containers.forEach(c -> names.add(c.path("name").asText()));
        // as kube merges: the new item comes before the next item both lists hold, in the applied order
        assertEquals(List.of("sidecar", "web"), names, containers::toString);
        assertEquals("nginx:1.25", containers.get(1).path("image").asText(), containers::toString);
        assertEquals("fast", containers.get(1).path("env").get(0).path("value").asText(), containers::toString);

        // the mesh manager stops applying its sidecar: it goes, the app's container stays
        String without = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: " + ns + "\n"
                + "spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        env:\n"
                + "        - name: MODE\n          value: fast\n";
        kubectl.ok("apply", "--server-side", "--field-manager=mesh", "-f", manifest("merge-mesh2.yaml", without).toString());
        containers = getJson(ns, "deploy", "web").path("spec").path("template").path("spec").path("containers");
        assertEquals(1, containers.size(), containers::toString);
        assertEquals("web", containers.get(0).path("name").asText());
    }

    @Test
    @Order(4)
    void updatesRecordTheirManagers() throws Exception {
        String ns = namespace("ssa-updates");
        kubectl.ok("-n", ns, "create", "deployment", "web", "--image=nginx");
        JsonNode d = managed(ns, "deploy", "web");
        JsonNode create = entry(d, "kubectl-create");
        assertEquals("Update", create.path("operation").asText(), d::toString);
        assertEquals("apps/v1", create.path("apiVersion").asText(), d::toString);
        assertTrue(create.path("fieldsV1").path("f:spec").has("f:replicas"), d::toString);

        kubectl.ok("-n", ns, "label", "deploy", "web", "tier=front");
        JsonNode label = entry(managed(ns, "deploy", "web"), "kubectl-label");
        assertEquals("{\"f:metadata\":{\"f:labels\":{\"f:tier\":{}}}}", label.path("fieldsV1").toString());

        kubectl.ok("-n", ns, "patch", "deploy", "web", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"observedGeneration\":1}}");
        JsonNode status = entry(managed(ns, "deploy", "web"), "kubectl-patch");
        assertEquals("status", status.path("subresource").asText(), status::toString);
        assertEquals("{\"f:status\":{\"f:observedGeneration\":{}}}", status.path("fieldsV1").toString());

        // a client may clear managedFields with one empty entry
        kubectl.ok("-n", ns, "patch", "deploy", "web", "--type=merge", "-p", "{\"metadata\":{\"managedFields\":[{}]}}");
        assertFalse(managed(ns, "deploy", "web").path("metadata").has("managedFields"));

        // the first apply to an object nobody manages conflicts with "before-first-apply"
        Result conflict = kubectl.run("apply", "--server-side", "-f",
                manifest("updates.yaml", deployment(ns, 4, "nginx")).toString());
        assertNotEquals(0, conflict.exitCode(), conflict::toString);
        assertTrue(conflict.stderr().contains("conflict with \"before-first-apply\" using apps/v1"), conflict::toString);
    }

    @Test
    @Order(5)
    void clientSideApplyMovesToServerSide() throws Exception {
        String ns = namespace("ssa-upgrade");
        Path csa = manifest("upgrade.yaml", configMap("moved", ns, "  a: \"1\"\n"));
        assertEquals("configmap/moved created", kubectl.ok("apply", "-f", csa.toString()).stdout().trim());
        assertEquals("Update", entry(managed(ns, "configmap", "moved"), "kubectl-client-side-apply")
                .path("operation").asText());

        Path ssa = manifest("upgrade2.yaml", configMap("moved", ns, "  a: \"2\"\n"));
        Result moved = kubectl.ok("apply", "--server-side", "-f", ssa.toString());
        assertEquals("configmap/moved serverside-applied", moved.stdout().trim(), moved::toString);
        JsonNode cm = managed(ns, "configmap", "moved");
        assertEquals("2", cm.path("data").path("a").asText(), cm::toString);
        assertEquals("Apply", entry(cm, "kubectl").path("operation").asText(), cm::toString);
        JsonNode lastApplied = JSON.readTree(cm.path("metadata").path("annotations")
                .path("kubectl.kubernetes.io/last-applied-configuration").asText());
        assertEquals("2", lastApplied.path("data").path("a").asText(), "the annotation follows the server-side apply");
    }

    @Test
    @Order(6)
    void dryRunAndValidation() throws Exception {
        String ns = namespace("ssa-dry");
        Path cm = manifest("dry.yaml", configMap("dry", ns, "  a: \"1\"\n"));
        Result dry = kubectl.ok("apply", "--server-side", "--dry-run=server", "-f", cm.toString());
        assertTrue(dry.stdout().contains("serverside-applied (server dry run)"), dry::toString);
        Result missing = kubectl.run("-n", ns, "get", "configmap", "dry");
        assertTrue(missing.stderr().contains("NotFound"), missing::toString);

        // the applied result is validated by the resource's strategy
        Result invalid = kubectl.run("apply", "--server-side", "-f", manifest("bad.yaml", deployment(ns, -1, "nginx")).toString());
        assertNotEquals(0, invalid.exitCode(), invalid::toString);
        assertTrue(invalid.stderr().contains("spec.replicas: Invalid value: -1"), invalid::toString);
    }

    @Test
    @Order(7)
    void scaleTakesTheReplicasFromTheApplier() throws Exception {
        String ns = namespace("ssa-scale");
        Path web = manifest("scale.yaml", deployment(ns, 2, "nginx"));
        kubectl.ok("apply", "--server-side", "-f", web.toString());
        assertEquals("deployment.apps/web scaled", kubectl.ok("-n", ns, "scale", "deploy", "web", "--replicas=5").stdout().trim());
        // kubectl scale sends no fieldManager: the manager is its User-Agent's name, beside kubectl's Apply entry
        JsonNode d = managed(ns, "deploy", "web");
        JsonNode scale = null;
        for (JsonNode e : d.path("metadata").path("managedFields")) {
            if (e.path("subresource").asText().equals("scale")) {
                scale = e;
            }
        }
        assertTrue(scale != null, d::toString);
        assertEquals("kubectl", scale.path("manager").asText(), d::toString);
        assertEquals("Update", scale.path("operation").asText(), d::toString);
        assertEquals("{\"f:spec\":{\"f:replicas\":{}}}", scale.path("fieldsV1").toString());
        assertFalse(entry(d, "kubectl").path("fieldsV1").path("f:spec").has("f:replicas"), d::toString);

        Result conflict = kubectl.run("apply", "--server-side", "-f", web.toString());
        assertNotEquals(0, conflict.exitCode(), conflict::toString);
        assertTrue(conflict.stderr().contains("conflict with \"kubectl\" with subresource \"scale\" using apps/v1: "
                + ".spec.replicas"), conflict::toString);
        assertEquals(5, getJson(ns, "deploy", "web").path("spec").path("replicas").asInt());
    }

    private JsonNode managed(String ns, String resource, String name) throws Exception {
        return JSON.readTree(kubectl.ok("-n", ns, "get", resource, name, "-o", "json", "--show-managed-fields").stdout());
    }

    private static JsonNode entry(JsonNode obj, String manager) {
        for (JsonNode e : obj.path("metadata").path("managedFields")) {
            if (e.path("manager").asText().equals(manager)) {
                return e;
            }
        }
        throw new AssertionError("no managedFields entry of " + manager + " in " + obj);
    }

    private JsonNode getJson(String ns, String resource, String name) throws Exception {
        return JSON.readTree(kubectl.ok("-n", ns, "get", resource, name, "-o", "json").stdout());
    }

    private String namespace(String name) throws Exception {
        kubectl.ok("create", "namespace", name);
        return name;
    }

    private Path manifest(String file, String content) throws Exception {
        Path path = work.resolve(file);
        Files.writeString(path, content, StandardCharsets.UTF_8);
        return path;
    }

    private static String configMap(String name, String ns, String data) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\ndata:\n" + data;
    }

    private static String deployment(String ns, int replicas, String image) {
        return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: " + ns + "\n"
                + "spec:\n  replicas: " + replicas + "\n  selector:\n    matchLabels:\n      app: web\n"
                + "  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n"
                + "      - name: web\n        image: " + image + "\n";
    }
}
