package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.kubelix.storage.etcd.EtcdTestSupport.CONFIGMAPS;
import static io.kubelix.storage.etcd.EtcdTestSupport.configMap;
import static io.kubelix.storage.etcd.EtcdTestSupport.key;
import static io.kubelix.storage.etcd.EtcdTestSupport.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd dies during a write load and comes back on the same data and ports: meanwhile every call
 * fails fast with UNREACHABLE or a 504 (never hangs), afterwards the same backend serves again,
 * no acknowledged write is lost, and an open watch resumes where it was.
 */
class EtcdFaultTest {
    /** A correctness bound on hanging, not a performance goal: the request deadline is 10s. */
    private static final Duration FAIL_FAST = Duration.ofSeconds(15);

    private record Failure(Duration took, RuntimeException error) {
    }

    @Test
    void outageFailsFastAndRecoveryLosesNoAcknowledgedWrite() throws Exception {
        try (EtcdServer etcd = EtcdServer.start()) {
            EtcdStorageBackend backend = EtcdTestSupport.backend(etcd.endpoint(), "/fault/registry");
            try {
                StorageInterface s = backend.forResource(CONFIGMAPS);
                long start = s.currentResourceVersion();
                Watch watch = s.watch("/configmaps/default",
                        ListOptions.recursiveAll().withResourceVersion(Long.toString(start)));
                Map<String, Long> acknowledged = new ConcurrentHashMap<>();
                List<Failure> failures = Collections.synchronizedList(new ArrayList<>());
                AtomicInteger successesAfterRestart = new AtomicInteger();
                AtomicBoolean restarted = new AtomicBoolean();
                AtomicBoolean stop = new AtomicBoolean();
                Thread writer = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        String name = "w" + i;
                        long t0 = System.nanoTime();
                        try {
                            ObjectNode created = s.create(key(name), configMap(name, "x"));
                            acknowledged.put(name, rv(created));
                            if (restarted.get()) {
                                successesAfterRestart.incrementAndGet();
                            }
                        } catch (StorageException | StatusException e) {
                            failures.add(new Failure(Duration.ofNanos(System.nanoTime() - t0), e));
                        }
                        sleep(20);
                    }
                }, "fault-test-writer");
                writer.start();

                awaitCondition(() -> acknowledged.size() >= 10, Duration.ofSeconds(20), "writes before the outage");
                etcd.kill();
                int before = acknowledged.size();
                awaitCondition(() -> failures.size() >= 5, Duration.ofSeconds(60), "failing writes during the outage");

                assertFailsFast(() -> s.get(key("w0"), GetOptions.DEFAULT));
                assertFailsFast(() -> s.getList("/configmaps/default", ListOptions.recursiveAll()));
                assertFailsFast(() -> s.count("/configmaps/default"));
                assertFailsFast(() -> s.guaranteedUpdate(key("w0"), false, Preconditions.NONE, (cur, r) -> cur));
                assertFailsFast(() -> s.watch("/configmaps/default", ListOptions.recursiveAll()));
                assertThrows(IllegalStateException.class, () -> new EtcdHealthChecker(backend.session().client()).check());

                etcd.restart();
                restarted.set(true);
                awaitCondition(() -> successesAfterRestart.get() >= 5, Duration.ofSeconds(60),
                        "writes after etcd came back");
                stop.set(true);
                writer.join(30_000);
                assertFalse(writer.isAlive());
                new EtcdHealthChecker(backend.session().client()).check();

                for (Failure f : failures) {
                    assertTrue(f.took().compareTo(FAIL_FAST) < 0, "a failing write took " + f.took());
                    assertClearError(f.error());
                }
                assertTrue(acknowledged.size() > before, "writes succeeded again");

                ListResult all = s.getList("/configmaps/default", ListOptions.recursiveAll());
                Map<String, Long> stored = new ConcurrentHashMap<>();
                all.items().forEach(o -> stored.put(o.path("metadata").path("name").asText(), rv(o)));
                acknowledged.forEach((name, rev) -> assertEquals(rev, stored.get(name),
                        "acknowledged write " + name + " is stored with its resourceVersion"));

                Set<String> seen = new HashSet<>();
                long last = start;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (!seen.containsAll(acknowledged.keySet()) && System.nanoTime() < deadline) {
                    WatchEvent e = watch.next(Duration.ofSeconds(1));
                    if (e == null || e.type() == WatchEvent.Type.BOOKMARK) {
                        continue;
                    }
                    assertEquals(WatchEvent.Type.ADDED, e.type(), () -> "event " + e);
                    assertTrue(rv(e.object()) > last, "the resumed watch keeps revision order");
                    last = rv(e.object());
                    assertTrue(seen.add(e.object().path("metadata").path("name").asText()), "no event twice");
                }
                assertTrue(seen.containsAll(acknowledged.keySet()),
                        "the watch, open across the outage, delivered every acknowledged write");
                watch.close();
            } finally {
                backend.deactivate();
            }
        }
    }

    private static void assertFailsFast(Executable call) {
        long t0 = System.nanoTime();
        RuntimeException e = assertThrows(RuntimeException.class, call);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertTrue(took.compareTo(FAIL_FAST) < 0, "a failing call took " + took);
        assertClearError(e);
    }

    private static void assertClearError(RuntimeException e) {
        if (e instanceof StorageException se) {
            assertEquals(StorageException.Code.UNREACHABLE, se.code(), se.getMessage());
        } else if (e instanceof StatusException st) {
            assertEquals(504, st.code(), st.getMessage());
        } else {
            throw new AssertionError("unexpected error", e);
        }
    }

    private static void awaitCondition(java.util.function.BooleanSupplier done, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            sleep(50);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
