package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default storage, SQLite in the data directory, as a user relies on it: a server restarted
 * (SIGTERM, then {@code bin/kubelix} again) keeps every object with its resourceVersion, and a watch
 * from a resourceVersion read before the restart continues with what happened after it; a server
 * killed with {@code kill -9} under a write load has kept every write it acknowledged; a backup
 * taken while it serves, restored into the stopped server, brings back the state it copied.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SqliteRestartIT extends KubectlSuite {
    private static final String NS = "durable";

    SqliteRestartIT() {
        super("sqlite-restart", "configmaps");
    }

    @Test
    @Order(1)
    void restartKeepsObjectsTheirResourceVersionsAndWatchesFromBefore() throws Exception {
        kubectl.ok("create", "namespace", NS);
        kubectl.ok("-n", NS, "create", "configmap", "a", "--from-literal=v=1");
        kubectl.ok("-n", NS, "create", "configmap", "b", "--from-literal=v=1");
        String old = kubectl.ok("-n", NS, "get", "configmap", "b", "-o", "jsonpath={.metadata.resourceVersion}").stdout();
        kubectl.ok("-n", NS, "patch", "configmap", "a", "-p", "{\"data\":{\"v\":\"2\"}}");
        kubectl.ok("-n", NS, "create", "configmap", "c", "--from-literal=v=1");
        Map<String, String> before = versions();
        assertEquals(List.of("a", "b", "c"), List.copyOf(before.keySet()), before::toString);

        server.restart(READY_TIMEOUT);
        server.awaitServed(kubectl, READY_TIMEOUT, "configmaps");

        assertEquals(before, versions(), "every configmap with its resourceVersion after the restart");
        assertEquals("2", kubectl.ok("-n", NS, "get", "configmap", "a", "-o", "jsonpath={.data.v}").stdout());

        Path output = work.resolve("watch-from-before.out");
        Process watch = kubectl.background(output, "get", "--raw",
                "/api/v1/namespaces/" + NS + "/configmaps?watch=true&resourceVersion=" + old);
        try {
            kubectl.ok("-n", NS, "create", "configmap", "d", "--from-literal=v=1");
            List<String> seen = await("the watch from resourceVersion " + old + " to reach d", () -> events(output),
                    e -> e.size() >= 3);
            assertEquals(List.of("MODIFIED a " + before.get("a"), "ADDED c " + before.get("c"),
                    "ADDED d " + versions().get("d")), seen, "events after resourceVersion " + old);
            assertTrue(watch.isAlive(), () -> "the watch ended: " + read(output));
        } finally {
            watch.destroy();
            watch.waitFor();
        }
    }

    @Test
    @Order(2)
    void killDashNineLosesNoAcknowledgedWrite() throws Exception {
        String ns = "kill-9";
        kubectl.ok("create", "namespace", ns);
        KubeApi api = new KubeApi(server.kubeconfig());
        int writers = 4;
        int keysPerWriter = 5;
        // per configmap: the last value the server acknowledged, and the one being written when writes failed
        Map<String, Integer> acked = new ConcurrentHashMap<>();
        Map<String, Integer> inFlight = new ConcurrentHashMap<>();
        AtomicInteger writes = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                String path = "/api/v1/namespaces/" + ns + "/configmaps";
                try {
                    for (int k = 0; k < keysPerWriter; k++) {
                        String name = "w" + writer + "-" + k;
                        inFlight.put(name, 0);
                        api.post(path, JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap")
                                .<ObjectNode>set("metadata", JSON.createObjectNode().put("name", name))
                                .set("data", JSON.createObjectNode().put("v", "0")));
                        acked.put(name, 0);
                        writes.incrementAndGet();
                    }
                    for (int n = 1; ; n++) {
                        for (int k = 0; k < keysPerWriter; k++) {
                            String name = "w" + writer + "-" + k;
                            inFlight.put(name, n);
                            api.mergePatch(path + "/" + name, JSON.createObjectNode()
                                    .set("data", JSON.createObjectNode().put("v", Integer.toString(n))));
                            acked.put(name, n);
                            writes.incrementAndGet();
                        }
                    }
                } catch (Exception | AssertionError stopped) {
                    // the server is gone: this writer's last acknowledged writes are recorded
                }
            }, "kill-9-writer-" + w);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        server.await("400 acknowledged writes", READY_TIMEOUT, writes::get, n -> n >= 400);
        server.kill();
        for (Thread t : threads) {
            t.join(30_000);
        }
        int acknowledged = writes.get();

        server.startAgain(READY_TIMEOUT);
        server.awaitServed(kubectl, READY_TIMEOUT, "configmaps");
        JsonNode list = JSON.readTree(kubectl.ok("-n", ns, "get", "configmaps", "-o", "json").stdout());
        Map<String, Integer> stored = new TreeMap<>();
        for (JsonNode item : list.path("items")) {
            stored.put(item.path("metadata").path("name").asText(), item.path("data").path("v").asInt(-1));
        }
        for (Map.Entry<String, Integer> e : acked.entrySet()) {
            Integer value = stored.get(e.getKey());
            assertTrue(value != null && (value.equals(e.getValue()) || value.equals(inFlight.get(e.getKey()))),
                    () -> e.getKey() + ": acknowledged " + e.getValue() + " (then writing " + inFlight.get(e.getKey())
                            + "), stored " + value + "; " + acknowledged + " writes acknowledged in all");
        }
    }

    @Test
    @Order(3)
    void backupWhileServingThenRestoreBringsBackThatState() throws Exception {
        kubectl.ok("-n", NS, "create", "configmap", "before-backup", "--from-literal=v=1");
        Map<String, String> backedUp = versions();
        Path backup = work.resolve("backup.db");
        Path kubelix = server.home().resolve("bin").resolve("kubelix");
        String out = run(kubelix.toString(), "backup", backup.toString(), "--data-dir", server.dataDir().toString());
        assertTrue(out.contains("backed up"), out);
        kubectl.ok("-n", NS, "create", "configmap", "after-backup", "--from-literal=v=1");

        String refused = run(kubelix.toString(), "restore", backup.toString(), "--data-dir", server.dataDir().toString());
        assertTrue(refused.contains("stop it before restoring"), refused);
        server.stop();
        String restored = run(kubelix.toString(), "restore", backup.toString(), "--data-dir",
                server.dataDir().toString());
        assertTrue(restored.contains("restored"), restored);
        server.startAgain(READY_TIMEOUT);
        server.awaitServed(kubectl, READY_TIMEOUT, "configmaps");

        assertEquals(backedUp, versions(), "the configmaps as they were backed up, with their resourceVersions");
    }

    /** Runs a command, returning its output (stdout and stderr). */
    private String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    /** The configmaps of the namespace, name to resourceVersion. */
    private Map<String, String> versions() throws Exception {
        JsonNode list = JSON.readTree(kubectl.ok("-n", NS, "get", "configmaps", "-o", "json").stdout());
        Map<String, String> versions = new TreeMap<>();
        for (JsonNode item : list.path("items")) {
            String name = item.path("metadata").path("name").asText();
            if (!name.equals("kube-root-ca.crt")) {
                versions.put(name, item.path("metadata").path("resourceVersion").asText());
            }
        }
        return versions;
    }

    /** The watch events written so far, as "TYPE name resourceVersion". */
    private static List<String> events(Path output) throws IOException {
        List<String> events = new ArrayList<>();
        for (String line : read(output).split("\n")) {
            if (line.startsWith("{")) {
                JsonNode e = JSON.readTree(line);
                JsonNode meta = e.path("object").path("metadata");
                if (!e.path("type").asText().equals("BOOKMARK")) {
                    events.add(e.path("type").asText() + " " + meta.path("name").asText() + " "
                            + meta.path("resourceVersion").asText());
                }
            }
        }
        return events;
    }

    private static String read(Path output) {
        try {
            return Files.exists(output) ? Files.readString(output) : "";
        } catch (IOException e) {
            return "(cannot read " + output + ": " + e + ")";
        }
    }
}
