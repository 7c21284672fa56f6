package io.kubelix.storage.sql;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What is particular to the SQLite backend: the file outlives the backend, and belongs to one server. */
class SqliteBackendTest {
    private static final StorageConfig CONFIGMAPS = new StorageConfig(GroupResource.of("", "configmaps"), "/configmaps");
    @TempDir
    Path dir;
    private final List<SqliteStorageBackend> backends = new ArrayList<>();

    @AfterEach
    void stop() {
        backends.forEach(SqliteStorageBackend::deactivate);
    }

    @Test
    void reopenedDatabaseHasEveryObjectItsResourceVersionAndTheHistoryWatchesReplay() throws Exception {
        SqliteStorageBackend first = open();
        StorageInterface s = first.forResource(CONFIGMAPS);
        long created = rv(s.create(key("a"), configMap("a")));
        long other = rv(s.create(key("b"), configMap("b")));
        first.deactivate();
        backends.remove(first);

        StorageInterface again = open().forResource(CONFIGMAPS);
        assertEquals(created, rv(again.get(key("a"), GetOptions.DEFAULT)));
        assertEquals(other, again.currentResourceVersion());
        try (Watch w = again.watch("/configmaps", new ListOptions(Long.toString(created), ResourceVersionMatch.UNSET,
                SelectionPredicate.EVERYTHING, true, 0, null, false))) {
            WatchEvent e = w.next(Duration.ofSeconds(5));
            assertNotNull(e, "the write after the watch's revision, replayed from the file");
            assertEquals("b", e.object().path("metadata").path("name").asText());
            assertEquals(other, rv(e.object()));
        }
        assertEquals(other + 1, rv(again.create(key("c"), configMap("c"))), "the revision sequence goes on");
    }

    /**
     * A read still running on a version of the plugin that was stopped (an update) opens a connection
     * without taking the file's lock again, so the next version opens the database.
     */
    @Test
    void aReadOnAStoppedVersionLeavesTheDatabaseToTheNext() {
        SqliteStorageBackend first = open();
        StorageInterface stopped = first.forResource(CONFIGMAPS);
        long created = rv(stopped.create(key("a"), configMap("a")));
        first.deactivate();
        backends.remove(first);
        assertEquals(created, rv(stopped.get(key("a"), GetOptions.DEFAULT)));

        StorageInterface next = open().forResource(CONFIGMAPS);
        assertEquals(created, rv(next.get(key("a"), GetOptions.DEFAULT)));
        assertEquals(created, rv(stopped.get(key("a"), GetOptions.DEFAULT)), "reads go on meanwhile");
    }

    /**
     * A write or a new resource's storage on a stopped version is a 503, which the server's storage
     * runs again on the plugin's next version, as it does for a stopping storage-memory.
     */
    @Test
    void aStoppedVersionRefusesWritesWithA503() {
        SqliteStorageBackend first = open();
        StorageInterface stopped = first.forResource(CONFIGMAPS);
        first.deactivate();
        backends.remove(first);
        io.kubelix.api.errors.StatusException write = assertThrows(io.kubelix.api.errors.StatusException.class,
                () -> stopped.create(key("late"), configMap("late")));
        assertEquals(503, write.code());
        io.kubelix.api.errors.StatusException bind = assertThrows(io.kubelix.api.errors.StatusException.class,
                () -> first.forResource(CONFIGMAPS));
        assertEquals(503, bind.code());
        StorageInterface next = open().forResource(CONFIGMAPS);
        assertTrue(rv(next.create(key("late"), configMap("late"))) > 0, "the refused write left nothing behind");
    }

    @Test
    void aSecondServerOnTheSameFileIsRefused() {
        open().forResource(CONFIGMAPS);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> open().forResource(CONFIGMAPS));
        assertTrue(e.getMessage().contains("is in use by another Kubelix server"), e.getMessage());
    }

    @Test
    void concurrentWritersLoseNoUpdateAndWatchersSeeEveryRevisionInOrder() throws Exception {
        StorageInterface s = open().forResource(CONFIGMAPS);
        long start = rv(s.create(key("counter"), configMap("counter")));
        Watch w = s.watch("/configmaps", new ListOptions(Long.toString(start), ResourceVersionMatch.UNSET,
                SelectionPredicate.EVERYTHING, true, 0, null, false));
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int writer = t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 25; i++) {
                    s.create(key("w" + writer + "-" + i), configMap("w" + writer + "-" + i));
                    s.guaranteedUpdate(key("counter"), false, io.kubelix.api.storage.Preconditions.NONE, (cur, rev) -> {
                        ObjectNode data = cur.has("data") ? (ObjectNode) cur.get("data") : cur.putObject("data");
                        data.put("n", data.path("n").asInt() + 1);
                        return cur;
                    });
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(200, s.get(key("counter"), GetOptions.DEFAULT).path("data").path("n").asInt());
        long end = s.currentResourceVersion();
        assertEquals(start + 400, end, "one revision per write");
        for (long expected = start + 1; expected <= end; expected++) {
            WatchEvent e = w.next(Duration.ofSeconds(5));
            assertNotNull(e, "the event of revision " + expected);
            assertEquals(expected, rv(e.object()), "events come once each, in revision order");
        }
        w.close();
    }

    @Test
    void aWholeListDecodedInBatchesKeepsTheRowsOrderAndTheSelection() {
        StorageInterface s = open().forResource(CONFIGMAPS);
        int n = 2_600;  // more batches of rows than are decoded at once
        for (int i = 0; i < n; i++) {
            s.create(key(String.format("cm-%05d", i)), configMap(String.format("cm-%05d", i)));
        }
        SelectionPredicate odd = new SelectionPredicate() {
            @Override
            public boolean matches(ObjectNode obj) {
                return Integer.parseInt(obj.path("metadata").path("name").asText().substring(3)) % 2 == 1;
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }
        };

        List<ObjectNode> all = s.getList("/configmaps", ListOptions.recursiveAll()).items();
        List<ObjectNode> selected = s.getList("/configmaps", new ListOptions("", ResourceVersionMatch.UNSET, odd, true,
                0, null, false)).items();

        assertEquals(n, all.size());
        assertEquals(n / 2, selected.size());
        for (int i = 0; i < n; i++) {
            assertEquals(String.format("cm-%05d", i), all.get(i).path("metadata").path("name").asText());
            assertEquals(i + 1, rv(all.get(i)) - rv(all.get(0)) + 1, "each object at the revision of its write");
        }
        for (int i = 0; i < n / 2; i++) {
            assertEquals(String.format("cm-%05d", 2 * i + 1), selected.get(i).path("metadata").path("name").asText());
        }
    }

    private SqliteStorageBackend open() {
        SqliteStorageBackend b = SqliteTestSupport.backend(dir.resolve("kubelix.db"));
        backends.add(b);
        return b;
    }

    private static long rv(ObjectNode obj) {
        return Long.parseLong(obj.path("metadata").path("resourceVersion").asText());
    }

    private static String key(String name) {
        return "/configmaps/default/" + name;
    }

    private static ObjectNode configMap(String name) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.put("apiVersion", "v1").put("kind", "ConfigMap");
        obj.putObject("metadata").put("name", name).put("namespace", "default");
        return obj;
    }
}
