package io.kubelix.itest.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.itest.e2e.EtcdKubelix.Response;
import io.kubelix.testing.postgres.PostgresProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two copies of the built distribution, A and B, on one PostgreSQL (started by this class on a free
 * loopback port with a temporary data directory): A with {@code --storage-backend=postgres
 * --storage-sql-url}, B with k3s' {@code --datastore-endpoint}. Objects written through one are
 * read and watched (LISTEN/NOTIFY) through the other with the same resourceVersions, a stale write
 * is a 409 on either, service cluster IPs allocated through both never collide, and the garbage
 * collector and namespace controller of both agree. The tests run in order on the same instances;
 * each uses its own namespace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresDistributionIT {
    /** How long a change made through one instance may take to reach a watch on the other. */
    private static final Duration PROPAGATION = Duration.ofSeconds(5);

    private static PostgresProcess postgres;
    private static EtcdKubelix a;
    private static EtcdKubelix b;
    private static Kubectl kubectlA;
    private static Kubectl kubectlB;
    private static Path work;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(PostgresProcess.binaries() != null, "PostgreSQL is not installed (no"
                + " /usr/lib/postgresql/*/bin/initdb; apt-get install postgresql, .ci/run does): skipping");
        work = KubelixServer.workDirectory("PostgresDistributionIT");
        postgres = PostgresProcess.start();
        Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution"));
        // One after the other: the first creates the tables, the second finds them.
        a = EtcdKubelix.start("A", distribution, work.resolve("a"),
                List.of("--storage-backend=postgres", "--storage-sql-url=" + postgres.url()));
        b = EtcdKubelix.start("B", distribution, work.resolve("b"), List.of("--datastore-endpoint=" + postgres.url()));
        String kubectl = System.getProperty("kubelix.itest.kubectl", "kubectl");
        kubectlA = a.kubectl(kubectl);
        kubectlB = b.kubectl(kubectl);
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {a, b, postgres}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    @Order(1)
    void anObjectCreatedThroughAIsReadThroughBWithTheSameResourceVersion() throws Exception {
        kubectlA.ok("create", "namespace", "shared");
        JsonNode created = json(kubectlA.ok("-n", "shared", "create", "configmap", "greeting",
                "--from-literal=hello=from-a", "-o", "json"));
        JsonNode viaB = json(kubectlB.ok("-n", "shared", "get", "configmap", "greeting", "-o", "json"));
        assertEquals("from-a", viaB.path("data").path("hello").asText(), viaB.toString());
        assertEquals(rv(created), rv(viaB), "the same object, the same resourceVersion");
        assertEquals(created.path("metadata").path("uid").asText(), viaB.path("metadata").path("uid").asText());
        assertEquals("namespace/shared", kubectlB.ok("get", "namespace", "shared", "-o", "name").stdout().trim());
    }

    @Test
    @Order(2)
    void kubectlGetWatchOnBSeesACreateUpdateAndDeleteThroughAInOrder() throws Exception {
        kubectlA.ok("create", "namespace", "watched");
        Path out = work.resolve("watch-b.json");
        Process watch = kubectlB.background(out, "-n", "watched", "get", "configmaps", "-w", "--output-watch-events",
                "-o", "json");
        try {
            // time for kubectl to list and start watching, so that the events below come through B's watch
            Thread.sleep(1500);
            JsonNode created = json(kubectlA.ok("-n", "watched", "create", "configmap", "w", "--from-literal=v=1",
                    "-o", "json"));
            awaitEvents(out, "w", 1, watch);
            JsonNode patched = json(kubectlA.ok("-n", "watched", "patch", "configmap", "w", "--type=merge",
                    "-p", "{\"data\":{\"v\":\"2\"}}", "-o", "json"));
            awaitEvents(out, "w", 2, watch);
            kubectlA.ok("-n", "watched", "delete", "configmap", "w");
            List<JsonNode> events = awaitEvents(out, "w", 3, watch);

            List<String> seen = new ArrayList<>();
            for (JsonNode e : events) {
                seen.add(e.path("type").asText() + ":" + e.path("object").path("data").path("v").asText());
            }
            assertEquals(List.of("ADDED:1", "MODIFIED:2", "DELETED:2"), seen, events.toString());
            assertEquals(rv(created), rv(events.get(0).path("object")), "B's ADDED carries A's resourceVersion");
            assertEquals(rv(patched), rv(events.get(1).path("object")), "B's MODIFIED carries A's resourceVersion");
            assertTrue(Long.parseLong(rv(events.get(2).path("object"))) > Long.parseLong(rv(patched)),
                    "the delete comes after the update: " + events.get(2));
        } finally {
            watch.destroy();
            watch.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @Order(3)
    void aDeleteThroughBIsSeenByAsWatch() throws Exception {
        kubectlA.ok("create", "namespace", "deleting");
        JsonNode created = json(kubectlA.ok("-n", "deleting", "create", "configmap", "d", "--from-literal=v=1",
                "-o", "json"));
        // Only its own configmap: both servers add their CA to the namespace's kube-root-ca.crt.
        HttpResponse<Stream<String>> watch = a.stream("/api/v1/namespaces/deleting/configmaps?watch=true"
                + "&fieldSelector=metadata.name%3Dd&resourceVersion=" + rv(created) + "&timeoutSeconds=60");
        assertEquals(200, watch.statusCode());
        Iterator<String> lines = watch.body().iterator();
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            kubectlB.ok("-n", "deleting", "delete", "configmap", "d");
            String line = reader.submit(lines::next).get(PROPAGATION.toSeconds(), TimeUnit.SECONDS);
            JsonNode e = EtcdKubelix.JSON.readTree(line);
            assertEquals("DELETED", e.path("type").asText(), line);
            assertEquals("d", e.path("object").path("metadata").path("name").asText(), line);
        } finally {
            reader.shutdownNow();
            watch.body().close();
        }
        Kubectl.Result gone = kubectlA.run("-n", "deleting", "get", "configmap", "d");
        assertNotEquals(0, gone.exitCode(), gone.toString());
        assertTrue(gone.stderr().contains("NotFound") || gone.stderr().contains("not found"), gone.toString());
    }

    @Test
    @Order(4)
    void aWriteWithAResourceVersionTheOtherInstanceReplacedIsAConflict() throws Exception {
        kubectlA.ok("create", "namespace", "conflict");
        kubectlA.ok("-n", "conflict", "create", "configmap", "c", "--from-literal=v=1");
        String path = "/api/v1/namespaces/conflict/configmaps/c";

        // B reads, A changes, B writes what it read: 409
        JsonNode staleOnB = b.get(path).json();
        kubectlA.ok("-n", "conflict", "patch", "configmap", "c", "--type=merge", "-p", "{\"data\":{\"v\":\"2\"}}");
        ((ObjectNode) staleOnB.path("data")).put("v", "from-b");
        Response r = b.send("PUT", path, "application/json", staleOnB.toString(), Duration.ofSeconds(20));
        assertEquals(409, r.status(), r.toString());
        assertEquals("Conflict", r.json().path("reason").asText(), r.toString());

        // and the other way round, with kubectl replace: A's copy is stale once B changed the object
        Path staleOnA = work.resolve("stale-on-a.json");
        Files.writeString(staleOnA, kubectlA.ok("-n", "conflict", "get", "configmap", "c", "-o", "json").stdout()
                .replace("\"v\": \"2\"", "\"v\": \"from-a\""), StandardCharsets.UTF_8);
        kubectlB.ok("-n", "conflict", "patch", "configmap", "c", "--type=merge", "-p", "{\"data\":{\"v\":\"3\"}}");
        Kubectl.Result replaced = kubectlA.run("replace", "-f", staleOnA.toString());
        assertNotEquals(0, replaced.exitCode(), replaced.toString());
        assertTrue(replaced.stderr().contains("(Conflict)") && replaced.stderr().contains("the object has been modified"),
                replaced.toString());
        assertEquals("3", kubectlA.ok("-n", "conflict", "get", "configmap", "c", "-o", "jsonpath={.data.v}")
                .stdout().trim());
    }

    @Test
    @Order(5)
    void serviceClusterIPsAllocatedThroughBothInstancesNeverCollide() throws Exception {
        kubectlA.ok("create", "namespace", "services");
        TreeMap<String, String> ips = new TreeMap<>();
        for (int i = 0; i < 20; i++) {
            Kubectl k = i % 2 == 0 ? kubectlA : kubectlB;
            JsonNode svc = json(k.ok("-n", "services", "create", "service", "clusterip", "s" + i, "--tcp=80:80",
                    "-o", "json"));
            String ip = svc.path("spec").path("clusterIP").asText();
            assertTrue(!ip.isEmpty() && !"None".equals(ip), svc.toString());
            String before = ips.put(ip, "s" + i);
            if (before != null) {
                fail("s" + i + " (through " + (i % 2 == 0 ? "A" : "B") + ") got " + ip + ", already " + before
                        + "'s: " + ips);
            }
        }
        for (Kubectl k : List.of(kubectlA, kubectlB)) {
            String listed = k.ok("-n", "services", "get", "services", "-o",
                    "jsonpath={range .items[*]}{.spec.clusterIP}{\"\\n\"}{end}").stdout();
            Set<String> seen = new HashSet<>(List.of(listed.trim().split("\n")));
            assertEquals(ips.keySet(), seen, "both instances list the same 20 distinct cluster IPs");
        }
    }

    @Test
    @Order(6)
    void theGarbageCollectorsOfBothInstancesDeleteADependentOnce() throws Exception {
        kubectlA.ok("create", "namespace", "owned");
        JsonNode owner = json(kubectlA.ok("-n", "owned", "create", "configmap", "owner", "-o", "json"));
        Path dependent = work.resolve("dependent.json");
        Files.writeString(dependent, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dependent\","
                + "\"namespace\":\"owned\",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"name\":\"owner\",\"uid\":\"" + owner.path("metadata").path("uid").asText() + "\"}]}}",
                StandardCharsets.UTF_8);
        kubectlB.ok("create", "-f", dependent.toString());
        kubectlA.ok("-n", "owned", "delete", "configmap", "owner");
        for (EtcdKubelix k : List.of(b, a)) {
            awaitStatus(k, "/api/v1/namespaces/owned/configmaps/dependent", 404, Duration.ofSeconds(30));
        }
    }

    @Test
    @Order(7)
    void aNamespaceDeletedThroughAGoesAwayWithItsObjectsAndBAgrees() throws Exception {
        kubectlA.ok("create", "namespace", "doomed");
        for (int i = 0; i < 3; i++) {
            kubectlA.ok("-n", "doomed", "create", "configmap", "cm" + i, "--from-literal=i=" + i);
            kubectlB.ok("-n", "doomed", "create", "secret", "generic", "s" + i, "--from-literal=i=" + i);
        }
        kubectlB.ok("-n", "doomed", "create", "service", "clusterip", "svc", "--tcp=80:80");
        kubectlA.ok("-n", "doomed", "create", "deployment", "web", "--image=nginx");
        kubectlA.ok("delete", "namespace", "doomed", "--wait=false");
        for (EtcdKubelix k : List.of(a, b)) {
            awaitStatus(k, "/api/v1/namespaces/doomed", 404, Duration.ofSeconds(60));
        }
        // neither instance brings anything back (a service account, a config map) once it is gone
        Thread.sleep(3000);
        for (EtcdKubelix k : List.of(a, b)) {
            assertEquals(404, k.get("/api/v1/namespaces/doomed").status());
            for (String list : List.of("/api/v1/namespaces/doomed/configmaps", "/api/v1/namespaces/doomed/secrets",
                    "/api/v1/namespaces/doomed/serviceaccounts", "/apis/apps/v1/namespaces/doomed/deployments")) {
                Response r = k.get(list);
                assertEquals(200, r.status(), r.toString());
                assertEquals(0, r.json().path("items").size(), list + ": " + r);
            }
        }
    }

    /**
     * Both instances bind loopback and so advertise this host's first address, as kube's: one IP,
     * so as with kube's lease reconciler they share one lease and the Endpoints list it once. Their
     * secure ports differ, so they take turns at the port on their 10 s pass, as kube's would, but
     * neither answers the other's writes (they used to, some 35 times a second each).
     */
    @Test
    @Order(8)
    void bothInstancesKeepTheKubernetesEndpointsWithoutRewritingThemAfterEachOther() throws Exception {
        for (EtcdKubelix k : List.of(a, b)) {
            Response r = k.get("/api/v1/namespaces/default/endpoints/kubernetes");
            if (r.status() == 404) {
                // A host with no address but loopback: no endpoints, as kube's validation refuses loopback ones.
                assertTrue(Files.readString(k.log(), StandardCharsets.UTF_8).contains("is loopback"), r.toString());
                continue;
            }
            assertEquals(200, r.status(), r.toString());
            JsonNode subset = r.json().path("subsets").get(0);
            assertEquals(1, subset.path("addresses").size(), r.toString());
            assertTrue(Set.of(a.port(), b.port()).contains(subset.path("ports").get(0).path("port").asInt()),
                    r.toString());
        }
        long before = bootstrapWrites(a) + bootstrapWrites(b);
        Thread.sleep(5000);
        long written = bootstrapWrites(a) + bootstrapWrites(b) - before;
        // At most one pass of each in 5 s, each writing the service, endpoints and slice once.
        assertTrue(written <= 6, written + " writes of the kubernetes service's objects in 5 s");
    }

    /** The writes the bootstrap controller of {@code k} logged so far. */
    private static long bootstrapWrites(EtcdKubelix k) throws Exception {
        try (Stream<String> lines = Files.lines(k.log(), StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains("bootstrap-controller") && l.contains("differed from what")).count();
        }
    }

    private static void awaitStatus(EtcdKubelix k, String path, int status, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Response last;
        do {
            last = k.get(path);
            if (last.status() == status) {
                return;
            }
            Thread.sleep(250);
        } while (System.nanoTime() < deadline);
        fail("GET " + path + " (pid " + k.pid() + ") is not " + status + " after " + timeout.toSeconds() + "s: " + last
                + "\n" + k.logTail());
    }

    /**
     * Waits up to {@link #PROPAGATION} for the {@code count}th event of object {@code name} in {@code kubectl get -w -o json
     * --output-watch-events} in {@code out}, and returns the events so far.
     */
    private static List<JsonNode> awaitEvents(Path out, String name, int count, Process watch) throws Exception {
        long deadline = System.nanoTime() + PROPAGATION.toNanos();
        List<JsonNode> events;
        do {
            // Only the object's: the namespace's kube-root-ca.crt, published as in kube, is listed too.
            events = events(Files.readString(out, StandardCharsets.UTF_8)).stream()
                    .filter(e -> name.equals(e.path("object").path("metadata").path("name").asText())).toList();
            if (events.size() >= count) {
                return events;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline && watch.isAlive());
        throw new AssertionError("kubectl get -w on B: " + events.size() + " events, not " + count + " within "
                + PROPAGATION.toSeconds() + "s (alive: " + watch.isAlive() + "):\n"
                + Files.readString(out, StandardCharsets.UTF_8));
    }

    /**
     * The complete JSON documents kubectl has written so far (the last may be half written), after
     * whatever it printed on stderr before the first one.
     */
    private static List<JsonNode> events(String output) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        int start = output.indexOf('{');
        if (start < 0) {
            return events;
        }
        try (MappingIterator<JsonNode> it = EtcdKubelix.JSON.readerFor(JsonNode.class).readValues(output.substring(start))) {
            while (it.hasNextValue()) {
                events.add(it.nextValue());
            }
        } catch (JsonProcessingException | RuntimeException halfWritten) {
            // the rest is still being written
        }
        return events;
    }

    private static JsonNode json(Kubectl.Result r) throws Exception {
        return EtcdKubelix.JSON.readTree(r.stdout());
    }

    private static String rv(JsonNode object) {
        return object.path("metadata").path("resourceVersion").asText();
    }
}
