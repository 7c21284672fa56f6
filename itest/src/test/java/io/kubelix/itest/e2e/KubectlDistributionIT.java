package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The built distribution end to end: {@code bin/kubelix} in a copy of distribution/target/kubelix,
 * driven by the real kubectl through the admin kubeconfig the server writes. The methods run in
 * order on one server; the last one hot-swaps resource-core through FileInstall's plugins/ folder.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlDistributionIT extends KubectlSuite {
    /** uid of the configmap created by {@link #createAndGetConfigMap()}, checked again after the hot swap. */
    private String createdUid;

    KubectlDistributionIT() {
        super("kubectl", null);
    }

    @Test
    @Order(1)
    void kubectlVersionShowsNoSkewWarning() throws Exception {
        Result version = kubectl.ok("version");
        assertTrue(version.stdout().contains("Client Version: v1."), version::toString);
        assertTrue(version.stdout().contains("Server Version: " + KubelixServer.property("kubelix.itest.kubernetes-version") + "."), version::toString);
        assertFalse(version.stderr().toLowerCase().contains("warning"), version::toString);
        assertFalse(version.stderr().toLowerCase().contains("skew"), version::toString);
    }

    @Test
    @Order(2)
    void systemNamespacesAreListed() throws Exception {
        Result ns = await("kubectl get ns lists the system namespaces", () -> kubectl.run("get", "ns"),
                r -> r.exitCode() == 0 && Stream.of("default", "kube-system", "kube-public", "kube-node-lease")
                        .allMatch(n -> r.stdout().lines().anyMatch(l -> l.startsWith(n + " "))));
        assertTrue(ns.stdout().startsWith("NAME"), ns::toString);
        assertTrue(ns.stdout().contains("Active"), ns::toString);
    }

    @Test
    @Order(3)
    void createAndGetConfigMap() throws Exception {
        Result created = kubectl.ok("create", "configmap", "e2e-created", "--from-literal=greeting=hello");
        assertEquals("configmap/e2e-created created", created.stdout().trim());

        Result yaml = kubectl.ok("get", "cm", "e2e-created", "-o", "yaml");
        JsonNode cm = YAML.readTree(yaml.stdout());
        assertEquals("ConfigMap", cm.path("kind").asText(), yaml::toString);
        assertEquals("hello", cm.path("data").path("greeting").asText(), yaml::toString);
        JsonNode meta = cm.path("metadata");
        assertEquals("default", meta.path("namespace").asText(), yaml::toString);
        createdUid = meta.path("uid").asText();
        assertFalse(createdUid.isEmpty(), yaml::toString);
        assertTrue(meta.path("resourceVersion").asText().matches("\\d+"), yaml::toString);
        assertTrue(meta.path("creationTimestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), yaml::toString);

        Result table = kubectl.ok("get", "cm");
        assertTrue(table.stdout().lines().anyMatch(l -> l.matches("e2e-created\\s+1\\s+\\S+")), table::toString);
    }

    @Test
    @Order(4)
    void applyTwiceIsUnchangedThenConfigured() throws Exception {
        Path file = work.resolve("applied.yaml");
        Files.writeString(file, configMapYaml("e2e-applied", "v1"), StandardCharsets.UTF_8);
        assertEquals("configmap/e2e-applied created", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertEquals("configmap/e2e-applied unchanged", kubectl.ok("apply", "-f", file.toString()).stdout().trim());

        Files.writeString(file, configMapYaml("e2e-applied", "v2"), StandardCharsets.UTF_8);
        assertEquals("configmap/e2e-applied configured", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertEquals("v2", kubectl.ok("get", "cm", "e2e-applied", "-o", "jsonpath={.data.key}").stdout());

        Result deleted = kubectl.ok("delete", "-f", file.toString());
        assertEquals("configmap \"e2e-applied\" deleted", deleted.stdout().trim());
        Result gone = kubectl.run("get", "cm", "e2e-applied");
        assertNotEquals(0, gone.exitCode(), gone::toString);
        assertTrue(gone.stderr().contains("NotFound"), gone::toString);
    }

    @Test
    @Order(5)
    void watchSeesAddedModifiedAndDeleted() throws Exception {
        Path output = work.resolve("watch.out");
        Process watch = kubectl.background(output, "get", "cm", "-w", "--output-watch-events");
        try {
            // the watch is established once it has listed what exists
            awaitLine(output, "the watch listing e2e-created", l -> l.matches("ADDED\\s+e2e-created\\s.*"), watch);

            kubectl.ok("create", "configmap", "e2e-watched", "--from-literal=a=1");
            kubectl.ok("patch", "configmap", "e2e-watched", "-p", "{\"data\":{\"a\":\"2\",\"b\":\"3\"}}");
            assertEquals("configmap \"e2e-watched\" deleted", kubectl.ok("delete", "configmap", "e2e-watched").stdout().trim());

            awaitLine(output, "ADDED e2e-watched", l -> l.matches("ADDED\\s+e2e-watched\\s+1\\s.*"), watch);
            awaitLine(output, "MODIFIED e2e-watched", l -> l.matches("MODIFIED\\s+e2e-watched\\s+2\\s.*"), watch);
            awaitLine(output, "DELETED e2e-watched", l -> l.matches("DELETED\\s+e2e-watched\\s.*"), watch);
            List<String> events = Files.readAllLines(output).stream().filter(l -> l.contains("e2e-watched")).map(l -> l.split("\\s+")[0]).toList();
            assertEquals(List.of("ADDED", "MODIFIED", "DELETED"), events, () -> "watch output: " + read(output));
            assertTrue(watch.isAlive(), () -> "the watch ended early: " + read(output));
        } finally {
            watch.destroy();
            watch.waitFor();
        }
    }

    @Test
    @Order(6)
    void apiResourcesListsTheCoreResources() throws Exception {
        Result resources = kubectl.ok("api-resources");
        assertTrue(resources.stdout().lines().anyMatch(l -> l.matches("configmaps\\s+cm\\s+v1\\s+true\\s+ConfigMap")), resources::toString);
        assertTrue(resources.stdout().lines().anyMatch(l -> l.matches("namespaces\\s+ns\\s+v1\\s+false\\s+Namespace")), resources::toString);
        assertTrue(resources.stdout().lines().anyMatch(l -> l.matches("secrets\\s+v1\\s+true\\s+Secret")), resources::toString);
    }

    @Test
    @Order(7)
    void requestWithoutCredentialsIsAnonymousAndWrongCredentialsUnauthorized() throws Exception {
        HttpResponse<String> r = server.get("/api/v1/namespaces", null);
        assertEquals(403, r.statusCode(), r::body);
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText(), r::body);
        assertEquals("Forbidden", status.path("reason").asText(), r::body);
        assertEquals("namespaces is forbidden: User \"system:anonymous\" cannot list resource \"namespaces\" in API"
                + " group \"\" at the cluster scope", status.path("message").asText(), r::body);

        HttpResponse<String> wrong = server.get("/api/v1/namespaces", "not-a-token");
        assertEquals(401, wrong.statusCode(), wrong::body);
        assertEquals("Unauthorized", JSON.readTree(wrong.body()).path("reason").asText(), wrong::body);

        HttpResponse<String> healthz = server.get("/healthz", null);
        assertEquals(200, healthz.statusCode(), healthz::body);
    }

    @Test
    @Order(8)
    void resourceCoreIsHotSwappedThroughPluginsFolder() throws Exception {
        // 1. out: FileInstall uninstalls the bundle, configmaps leave discovery
        Path aside = server.takePluginOut("resource-core", work.resolve("aside"));
        await("configmaps gone from kubectl api-resources", () -> kubectl.run("api-resources"),
                r -> r.exitCode() == 0 && r.stdout().lines().noneMatch(l -> l.startsWith("configmaps ")));
        // Discovery still answers (other groups are served), without configmaps in it.
        Result getCm = kubectl.run("get", "cm");
        assertNotEquals(0, getCm.exitCode(), getCm::toString);
        assertTrue(getCm.stderr().contains("the server doesn't have a resource type \"cm\""), getCm::toString);
        Result raw = kubectl.run("get", "--raw", "/api/v1/namespaces/default/configmaps");
        assertNotEquals(0, raw.exitCode(), raw::toString);
        assertTrue(raw.stderr().contains("Error from server (NotFound)"), raw::toString);

        // 2. back: installed again, and the configmap created before is still stored
        server.putPluginBack(aside);
        await("configmaps back in kubectl api-resources", () -> kubectl.run("api-resources"),
                r -> r.exitCode() == 0 && r.stdout().lines().anyMatch(l -> l.startsWith("configmaps ")));
        Result uid = await("configmap e2e-created served again",
                () -> kubectl.run("get", "cm", "e2e-created", "-o", "jsonpath={.metadata.uid}"), r -> r.exitCode() == 0);
        assertEquals(createdUid, uid.stdout(), uid::toString);
        assertEquals("hello", kubectl.ok("get", "cm", "e2e-created", "-o", "jsonpath={.data.greeting}").stdout());
    }

    private static String configMapYaml(String name, String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  key: " + value + "\n";
    }


    private void awaitLine(Path output, String what, java.util.function.Predicate<String> line, Process watch) throws Exception {
        await(what, () -> {
            String s = read(output);
            if (!watch.isAlive()) {
                throw new AssertionError("kubectl watch exited with " + watch.exitValue() + " before " + what + ":\n" + s);
            }
            return s;
        }, s -> s.lines().anyMatch(line));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
