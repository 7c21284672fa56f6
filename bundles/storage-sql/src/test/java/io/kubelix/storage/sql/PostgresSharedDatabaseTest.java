package io.kubelix.storage.sql;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.testing.postgres.PostgresProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Two servers on one PostgreSQL database, as two Kubelix instances sharing it: one revision
 * sequence for both, each sees the other's writes in its reads and in its watches (LISTEN/NOTIFY,
 * then a read of the log by revision), conflicting writers lose no update, and one compacts at a time.
 */
class PostgresSharedDatabaseTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static final StorageConfig CONFIGMAPS = new StorageConfig(GroupResource.of("", "configmaps"), "/configmaps");
    private static PostgresProcess postgres;
    private PostgresStorageBackend a;
    private PostgresStorageBackend b;
    private final List<Watch> watches = new ArrayList<>();

    @BeforeAll
    static void startPostgres() throws Exception {
        Assumptions.assumeTrue(PostgresProcess.binaries() != null, PostgresProcess.NOT_INSTALLED);
        postgres = PostgresProcess.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void twoServers() throws Exception {
        String url = postgres.newSchema(new org.postgresql.Driver(), "shared_" + SCHEMAS.incrementAndGet());
        a = PostgresStorageConformanceTest.backend(url);
        b = PostgresStorageConformanceTest.backend(url);
    }

    @AfterEach
    void stop() {
        watches.forEach(Watch::close);
        a.deactivate();
        b.deactivate();
    }

    @Test
    void aWatchOnOneServerSeesTheOtherServersWritesInOrder() throws Exception {
        StorageInterface onA = a.forResource(CONFIGMAPS);
        StorageInterface onB = b.forResource(CONFIGMAPS);
        long start = onB.currentResourceVersion();
        Watch w = watch(onB, start);

        long created = rv(onA.create(key("x"), configMap("x", "1")));
        long createdOnB = rv(onB.create(key("y"), configMap("y", "1")));
        long updated = rv(onA.guaranteedUpdate(key("x"), false, Preconditions.NONE, (cur, rev) -> configMap("x", "2")));

        assertEquals(List.of("ADDED x " + created, "ADDED y " + createdOnB, "MODIFIED x " + updated),
                List.of(next(w), next(w), next(w)));
        assertEquals("2", onB.get(key("x"), GetOptions.DEFAULT).path("data").path("v").asText());
        assertEquals(updated, onB.currentResourceVersion(), "one revision sequence for both servers");
    }

    @Test
    void aWatchStartedAfterTheWritesCatchesUpFromItsRevision() throws Exception {
        StorageInterface onA = a.forResource(CONFIGMAPS);
        StorageInterface onB = b.forResource(CONFIGMAPS);
        long before = rv(onA.create(key("x"), configMap("x", "1")));
        long deleted = rv(onA.delete(key("x"), Preconditions.NONE, null));
        Watch w = watch(onB, before);
        assertEquals("DELETED x " + deleted, next(w));
        assertThrows(StorageException.class, () -> onB.get(key("x"), GetOptions.DEFAULT));
    }

    @Test
    void concurrentUpdatesFromBothServersLoseNoUpdate() throws Exception {
        StorageInterface onA = a.forResource(CONFIGMAPS);
        StorageInterface onB = b.forResource(CONFIGMAPS);
        onA.create(key("counter"), configMap("counter", "0"));
        List<Thread> threads = new ArrayList<>();
        for (StorageInterface s : List.of(onA, onB, onA, onB)) {
            Thread t = new Thread(() -> {
                for (int i = 0; i < 25; i++) {
                    s.guaranteedUpdate(key("counter"), false, Preconditions.NONE, (cur, rev) -> {
                        int n = Integer.parseInt(cur.path("data").path("v").asText());
                        ((ObjectNode) cur.get("data")).put("v", Integer.toString(n + 1));
                        return cur;
                    });
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals("100", onB.get(key("counter"), GetOptions.DEFAULT).path("data").path("v").asText());
    }

    @Test
    void oneServerAtATimeCompacts() throws Exception {
        Dialect onA = a.backend().store().dialect();
        Dialect onB = b.backend().store().dialect();
        try (AutoCloseable lead = onA.compactionLead()) {
            assertNotNull(lead, "the first server leads");
            assertNull(onB.compactionLead(), "the other waits for its next interval");
        }
        try (AutoCloseable lead = onB.compactionLead()) {
            assertNotNull(lead, "released, the lead goes to whoever asks");
        }
    }

    private Watch watch(StorageInterface s, long from) {
        Watch w = s.watch("/configmaps", new ListOptions(Long.toString(from), ResourceVersionMatch.UNSET,
                SelectionPredicate.EVERYTHING, true, 0, null, false));
        watches.add(w);
        return w;
    }

    /** The next event as "TYPE name resourceVersion"; fails when none comes within 10 s. */
    private static String next(Watch w) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            WatchEvent e = w.next(Duration.ofMillis(100));
            if (e != null && e.type() != WatchEvent.Type.BOOKMARK) {
                return e.type() + " " + e.object().path("metadata").path("name").asText() + " " + rv(e.object());
            }
        }
        throw new AssertionError("no watch event within 10 s");
    }

    private static long rv(ObjectNode obj) {
        assertNotNull(obj);
        return Long.parseLong(obj.path("metadata").path("resourceVersion").asText());
    }

    private static String key(String name) {
        return "/configmaps/default/" + name;
    }

    private static ObjectNode configMap(String name, String v) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.put("apiVersion", "v1").put("kind", "ConfigMap");
        obj.putObject("metadata").put("name", name).put("namespace", "default");
        obj.putObject("data").put("v", v);
        return obj;
    }
}
