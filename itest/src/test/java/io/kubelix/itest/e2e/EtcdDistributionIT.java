package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.EtcdKubelix.Response;
import io.kubelix.itest.etcd.EtcdProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two copies of the built distribution, A and B, started with {@code bin/kubelix --storage-backend
 * etcd3} on one real etcd (started by this class on free loopback ports with its own data
 * directory) under a random {@code --etcd-prefix}: objects written through one are read and
 * watched through the other, conflicting writers lose no update, A restarts with every object and
 * resourceVersion intact, and an etcd crash under write load gives bounded 5xx errors and a failing
 * /readyz, then recovery without losing an acknowledged write. The tests run in order on the same
 * instances; each uses its own namespace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdDistributionIT {
    /**
     * Every namespace also holds the root CA publisher's kube-root-ca.crt, which the two servers,
     * each with its own CA, both write to: the tests follow only their own configmaps.
     */
    private static final String NOT_ROOT_CA = "fieldSelector=metadata.name%21%3Dkube-root-ca.crt";

    /** No request may take longer than this, whatever etcd does. */
    private static final Duration REQUEST_BOUND = Duration.ofSeconds(15);

    private static EtcdProcess etcd;
    private static EtcdKubelix a;
    private static EtcdKubelix b;
    private static Kubectl kubectlA;
    private static Kubectl kubectlB;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(EtcdProcess.findBinary() != null,
                "etcd is not installed (apt-get install etcd-server; .ci/run does): skipping");
        Path work = Path.of(System.getProperty("kubelix.itest.work", "target/itest-work"), "e2e",
                "EtcdDistributionIT-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        etcd = EtcdProcess.start(work.resolve("etcd"));
        String prefix = "/registry-" + UUID.randomUUID().toString().substring(0, 8);
        Path distribution = Path.of(System.getProperty("kubelix.itest.distribution", "../distribution/target/kubelix"));
        a = EtcdKubelix.start("A", distribution, work.resolve("a"), etcd.endpoint(), prefix);
        b = EtcdKubelix.start("B", distribution, work.resolve("b"), etcd.endpoint(), prefix);
        String kubectl = System.getProperty("kubelix.itest.kubectl", "kubectl");
        kubectlA = a.kubectl(kubectl);
        kubectlB = b.kubectl(kubectl);
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {a, b, etcd}) {
            if (c != null) {
                c.close();
            }
        }
    }

    // ---- a: two instances, one etcd

    @Test
    @Order(1)
    void anObjectWrittenThroughOneInstanceIsReadThroughTheOther() throws Exception {
        kubectlA.ok("create", "namespace", "shared");
        kubectlA.ok("-n", "shared", "create", "configmap", "greeting", "--from-literal=hello=from-a");
        Kubectl.Result got = kubectlB.ok("-n", "shared", "get", "configmap", "greeting", "-o", "json");
        JsonNode cm = EtcdKubelix.JSON.readTree(got.stdout());
        assertEquals("from-a", cm.path("data").path("hello").asText(), got.toString());
        JsonNode viaA = a.get("/api/v1/namespaces/shared/configmaps/greeting").json();
        assertEquals(viaA.path("metadata").path("resourceVersion").asText(),
                cm.path("metadata").path("resourceVersion").asText(), "the same object, the same resourceVersion");
        assertEquals(viaA.path("metadata").path("uid").asText(), cm.path("metadata").path("uid").asText());
        Kubectl.Result names = kubectlB.ok("get", "namespace", "shared", "-o", "name");
        assertEquals("namespace/shared", names.stdout().trim());
    }

    @Test
    @Order(2)
    void aWatchOnOneInstanceSeesChangesMadeThroughTheOther() throws Exception {
        kubectlA.ok("create", "namespace", "watched");
        String rv = b.get("/api/v1/namespaces/watched/configmaps").json().path("metadata").path("resourceVersion").asText();
        HttpResponse<Stream<String>> watch = b.stream("/api/v1/namespaces/watched/configmaps?" + NOT_ROOT_CA
                + "&watch=true&resourceVersion=" + rv + "&timeoutSeconds=60");
        assertEquals(200, watch.statusCode());
        BlockingQueue<String> lines = new ArrayBlockingQueue<>(1000);
        Thread reader = new Thread(() -> {
            try (Stream<String> body = watch.body()) {
                body.forEach(lines::add);
            } catch (RuntimeException closed) {
                // the watch was closed
            }
        }, "watch-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            kubectlA.ok("-n", "watched", "create", "configmap", "w", "--from-literal=v=1");
            kubectlA.ok("-n", "watched", "patch", "configmap", "w", "--type=merge", "-p", "{\"data\":{\"v\":\"2\"}}");
            kubectlA.ok("-n", "watched", "delete", "configmap", "w");
            List<String> seen = new ArrayList<>();
            long last = Long.parseLong(rv);
            for (String expected : List.of("ADDED:1", "MODIFIED:2", "DELETED:2")) {
                String line = lines.poll(15, TimeUnit.SECONDS);
                assertNotNull(line, "no watch event on B for " + expected + " after " + seen);
                JsonNode e = EtcdKubelix.JSON.readTree(line);
                JsonNode obj = e.path("object");
                seen.add(e.path("type").asText() + ":" + obj.path("data").path("v").asText());
                assertEquals("w", obj.path("metadata").path("name").asText(), line);
                long erv = Long.parseLong(obj.path("metadata").path("resourceVersion").asText());
                assertTrue(erv > last, "resourceVersions increase: " + line);
                last = erv;
            }
            assertEquals(List.of("ADDED:1", "MODIFIED:2", "DELETED:2"), seen);
        } finally {
            watch.body().close();
        }
    }

    @Test
    @Order(3)
    void concurrentUpdatesThroughBothInstancesLoseNoIncrement() throws Exception {
        kubectlA.ok("create", "namespace", "counting");
        kubectlA.ok("-n", "counting", "create", "configmap", "counter", "--from-literal=n=0");
        int perThread = 20;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> viaA = pool.submit(() -> increment(a, perThread));
            Future<Integer> viaB = pool.submit(() -> increment(b, perThread));
            int conflicts = viaA.get(180, TimeUnit.SECONDS) + viaB.get(180, TimeUnit.SECONDS);
            System.out.println("EtcdDistributionIT: " + 2 * perThread + " increments through A and B, " + conflicts
                    + " conflicts (409) retried");
        } finally {
            pool.shutdownNow();
        }
        String path = "/api/v1/namespaces/counting/configmaps/counter";
        assertEquals(String.valueOf(2 * perThread), a.get(path).json().path("data").path("n").asText());
        assertEquals(String.valueOf(2 * perThread), b.get(path).json().path("data").path("n").asText());
        Kubectl.Result viaKubectl = kubectlB.ok("-n", "counting", "get", "configmap", "counter",
                "-o", "jsonpath={.data.n}");
        assertEquals(String.valueOf(2 * perThread), viaKubectl.stdout().trim());
    }

    /** Read, add one, PUT with the read resourceVersion; on 409 Conflict read again. Returns the conflicts. */
    private static int increment(EtcdKubelix k, int times) throws Exception {
        String path = "/api/v1/namespaces/counting/configmaps/counter";
        int conflicts = 0;
        for (int done = 0; done < times; ) {
            JsonNode cm = k.get(path).json();
            int n = Integer.parseInt(cm.path("data").path("n").asText());
            ((com.fasterxml.jackson.databind.node.ObjectNode) cm.path("data")).put("n", Integer.toString(n + 1));
            Response r = k.send("PUT", path, "application/json", cm.toString(), REQUEST_BOUND);
            if (r.status() == 409) {
                assertEquals("Conflict", r.json().path("reason").asText(), r.toString());
                conflicts++;
            } else {
                assertEquals(200, r.status(), r.toString());
                done++;
            }
        }
        return conflicts;
    }

    // ---- b: restart

    @Test
    @Order(4)
    void aRestartedInstanceHasEveryObjectAndContinuesAWatchFromAnOldResourceVersion() throws Exception {
        kubectlA.ok("create", "namespace", "restart");
        for (int i = 0; i < 5; i++) {
            kubectlA.ok("-n", "restart", "create", "configmap", "r" + i, "--from-literal=i=" + i);
        }
        String list = "/api/v1/namespaces/restart/configmaps?" + NOT_ROOT_CA;
        JsonNode before = a.get(list).json();
        String oldRv = before.path("metadata").path("resourceVersion").asText();
        Map<String, String> rvs = resourceVersions(before);
        assertEquals(5, rvs.size(), before.toString());

        long oldPid = a.pid();
        a.stop();
        a.start();
        assertTrue(a.pid() != oldPid, "a new process");

        JsonNode after = a.get(list).json();
        assertEquals(rvs, resourceVersions(after), "every object with its resourceVersion after the restart");
        for (int i = 0; i < 5; i++) {
            JsonNode cm = a.get("/api/v1/namespaces/restart/configmaps/r" + i).json();
            assertEquals(Integer.toString(i), cm.path("data").path("i").asText());
            assertEquals(rvs.get("r" + i), cm.path("metadata").path("resourceVersion").asText());
        }
        Kubectl.Result viaKubectl = kubectlA.ok("-n", "restart", "get", "configmaps", "-o", "name",
                "--field-selector=metadata.name!=kube-root-ca.crt");
        assertEquals("configmap/r0\nconfigmap/r1\nconfigmap/r2\nconfigmap/r3\nconfigmap/r4", viaKubectl.stdout().trim());

        // a client that watched before the restart continues from its old resourceVersion
        HttpResponse<Stream<String>> watch = a.stream(list + "&watch=true&resourceVersion=" + oldRv + "&timeoutSeconds=60");
        assertEquals(200, watch.statusCode());
        Iterator<String> lines = watch.body().iterator();
        try {
            kubectlB.ok("-n", "restart", "patch", "configmap", "r0", "--type=merge", "-p", "{\"data\":{\"i\":\"changed\"}}");
            kubectlB.ok("-n", "restart", "delete", "configmap", "r1");
            kubectlA.ok("-n", "restart", "create", "configmap", "r5", "--from-literal=i=5");
            List<String> seen = new ArrayList<>();
            ExecutorService reader = Executors.newSingleThreadExecutor();
            try {
                for (int i = 0; i < 3; i++) {
                    String line = reader.submit(lines::next).get(15, TimeUnit.SECONDS);
                    JsonNode e = EtcdKubelix.JSON.readTree(line);
                    assertFalse("ERROR".equals(e.path("type").asText()), "the old resourceVersion is served: " + line);
                    seen.add(e.path("type").asText() + " " + e.path("object").path("metadata").path("name").asText());
                }
            } finally {
                reader.shutdownNow();
            }
            assertEquals(List.of("MODIFIED r0", "DELETED r1", "ADDED r5"), seen);
        } finally {
            watch.body().close();
        }
    }

    private static Map<String, String> resourceVersions(JsonNode list) {
        Map<String, String> out = new HashMap<>();
        for (JsonNode item : list.path("items")) {
            out.put(item.path("metadata").path("name").asText(), item.path("metadata").path("resourceVersion").asText());
        }
        return out;
    }

    // ---- c: etcd crashes under write load

    @Test
    @Order(5)
    void anEtcdCrashUnderWriteLoadGivesBoundedErrorsAndLosesNoAcknowledgedWrite() throws Exception {
        kubectlA.ok("create", "namespace", "fault");
        String list = "/api/v1/namespaces/fault/configmaps";
        Set<String> acknowledged = Collections.synchronizedSet(new java.util.TreeSet<>());
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<String> tooSlow = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            for (int i = 0; running.get(); i++) {
                String name = "w" + i;
                String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                        + "\"},\"data\":{\"i\":\"" + i + "\"}}";
                long t0 = System.nanoTime();
                try {
                    Response r = a.send("POST", list, "application/json", body, REQUEST_BOUND.plusSeconds(5));
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    if (ms > REQUEST_BOUND.toMillis()) {
                        tooSlow.add(name + " took " + ms + " ms: " + r);
                    }
                    if (r.ok()) {
                        acknowledged.add(name);
                    } else {
                        JsonNode s = r.json();
                        if (r.status() < 500 || !"Status".equals(s.path("kind").asText())
                                || s.path("message").asText().isEmpty()) {
                            failures.add(name + ": not a 5xx Status with a message: " + r);
                        } else {
                            failures.add(name + ": " + r.status() + " " + s.path("reason").asText() + ": "
                                    + s.path("message").asText());
                        }
                        Thread.sleep(100);
                    }
                } catch (java.net.http.HttpTimeoutException e) {
                    tooSlow.add(name + ": no answer within " + REQUEST_BOUND.plusSeconds(5));
                } catch (Exception e) {
                    failures.add(name + ": " + e);
                }
            }
        }, "fault-writer");
        writer.start();
        try {
            Thread.sleep(2000);
            int beforeCrash = acknowledged.size();
            assertTrue(beforeCrash > 0, "writes succeed before the crash: " + failures);

            etcd.kill();
            long killedAt = System.nanoTime();
            Response notReady = null;
            while (System.nanoTime() - killedAt < Duration.ofSeconds(30).toNanos()) {
                long t0 = System.nanoTime();
                Response r = a.send("GET", "/readyz?verbose", null, null, REQUEST_BOUND);
                assertTrue(System.nanoTime() - t0 < REQUEST_BOUND.toNanos(), "/readyz answers in time");
                if (r.status() != 200) {
                    notReady = r;
                    break;
                }
                Thread.sleep(200);
            }
            assertNotNull(notReady, "/readyz fails while etcd is down");
            assertTrue(notReady.body().contains("[-]etcd failed"), notReady.toString());
            // let the write load hit the outage for a while
            long failedBefore = failures.size();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (failures.size() < failedBefore + 3 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            Response get = a.send("GET", list + "/w0", null, null, REQUEST_BOUND);
            System.out.println("EtcdDistributionIT: GET during the outage: " + get);
            int duringOutage = failures.size();
            assertTrue(duringOutage >= 3, "writes fail while etcd is down: " + failures);

            etcd.restart();
            long restartedAt = System.nanoTime();
            Response ready = null;
            while (System.nanoTime() - restartedAt < Duration.ofSeconds(60).toNanos()) {
                Response r = a.send("GET", "/readyz", null, null, REQUEST_BOUND);
                if (r.status() == 200) {
                    ready = r;
                    break;
                }
                Thread.sleep(250);
            }
            assertNotNull(ready, "A is ready again by itself after etcd returned\n" + a.logTail());
            System.out.println("EtcdDistributionIT: A ready " + (System.nanoTime() - restartedAt) / 1_000_000
                    + " ms after etcd restarted");
            int atRecovery = acknowledged.size();
            deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (acknowledged.size() < atRecovery + 10 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(acknowledged.size() >= atRecovery + 10, "writes succeed again after the outage");
        } finally {
            running.set(false);
            writer.join(TimeUnit.SECONDS.toMillis(30));
        }
        System.out.println("EtcdDistributionIT: " + acknowledged.size() + " writes acknowledged, " + failures.size()
                + " failed; failures: " + failures.stream().limit(5).toList());
        assertEquals(List.of(), tooSlow, "every request answered within " + REQUEST_BOUND);
        for (String f : failures) {
            assertFalse(f.contains("not a 5xx Status"), f);
        }
        for (EtcdKubelix k : List.of(a, b)) {
            // B reconnects to etcd on its own schedule: its LIST answers 503 until it has.
            Response listed = null;
            long listDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < listDeadline) {
                listed = k.get(list);
                if (listed.ok()) {
                    break;
                }
                Thread.sleep(250);
            }
            assertTrue(listed.ok(), "LIST after the outage (" + k.pid() + "): " + listed);
            Set<String> stored = listed.json().path("items").findValues("metadata").stream()
                    .map(m -> m.path("name").asText()).collect(Collectors.toSet());
            List<String> lost = acknowledged.stream().filter(n -> !stored.contains(n)).toList();
            if (!lost.isEmpty()) {
                fail("acknowledged writes lost (" + k.pid() + "): " + lost);
            }
        }
    }
}
