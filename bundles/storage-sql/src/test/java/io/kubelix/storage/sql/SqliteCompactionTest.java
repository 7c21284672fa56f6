package io.kubelix.storage.sql;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compaction of the SQLite backend: history a read can no longer see is dropped and the file gives
 * its space back, so a database whose objects are updated again and again stays the size of its
 * live data rather than growing with every write.
 */
class SqliteCompactionTest {
    private static final int OBJECTS = 50;
    private static final String PAYLOAD = "x".repeat(2048);
    @TempDir
    Path dir;
    private SqliteStorageBackend backend;
    /** How many times each object has been updated. */
    private int updates;

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    @Test
    void fileStaysTheSizeOfItsLiveDataUnderEndlessUpdates() throws Exception {
        Path file = dir.resolve("compaction.db");
        backend = new SqliteStorageBackend(SqlSettings.read(Map.of("storage-sql-url", file.toString(),
                "etcd-compaction-interval", "0", "sqlite-synchronous", "NORMAL"), name -> null), null);
        StorageInterface storage = backend.forResource(new StorageConfig(GroupResource.of("", "configmaps"), "/configmaps"));
        for (int i = 0; i < OBJECTS; i++) {
            storage.create(key(i), configMap(i, 0));
        }
        long[] sizes = new long[3];
        for (int round = 0; round < sizes.length; round++) {
            long uncompacted = updateEveryObject(storage, 30);
            backend.backend().store().compact(storage.currentResourceVersion());
            sizes[round] = size(file);
            assertTrue(sizes[round] < uncompacted / 4, "round " + round + ": " + sizes[round]
                    + " bytes after compaction, " + uncompacted + " before");
        }
        long live = (long) OBJECTS * PAYLOAD.length();
        assertTrue(sizes[2] < 3 * live, "the file (" + sizes[2] + " bytes) is within 3x its live data (" + live + ")");
        assertTrue(sizes[2] <= sizes[0] * 1.1, "the file does not grow from round to round: " + sizes[0] + " then "
                + sizes[2]);
        // the objects are all there, each at its last write
        for (int i = 0; i < OBJECTS; i++) {
            assertEquals(PAYLOAD + (30 * 3), storage.get(key(i), GetOptions.DEFAULT).path("data").path("v").asText());
        }
    }

    @Test
    void compactorKeepsOneIntervalOfHistory() throws Exception {
        backend = SqliteTestSupport.backend(dir.resolve("compactor.db"));
        StorageInterface storage = backend.forResource(new StorageConfig(GroupResource.of("", "configmaps"), "/configmaps"));
        long first = storage.create(key(0), configMap(0, 0)).path("metadata").path("resourceVersion").asLong();
        Compactor compactor = new Compactor(backend.backend().store());

        compactor.run();
        long seen = storage.currentResourceVersion();
        storage.guaranteedUpdate(key(0), false, Preconditions.NONE, (cur, rev) -> configMap(0, 1));
        assertEquals(1, storage.getList("/configmaps", exact(first)).items().size(),
                "the first run only notes the revision it will compact to next time");

        compactor.run();
        StatusException expired = assertThrows(StatusException.class, () -> storage.getList("/configmaps",
                exact(seen - 1)));
        assertEquals(410, expired.code());
        assertEquals(1, storage.getList("/configmaps", exact(seen)).items().size(),
                "the revision seen at the previous run stays readable");
    }

    private static ListOptions exact(long revision) {
        return new ListOptions(Long.toString(revision), ResourceVersionMatch.EXACT, SelectionPredicate.EVERYTHING,
                true, 0, null, false);
    }

    /** Updates every object {@code times} times more; returns the file's size before compaction. */
    private long updateEveryObject(StorageInterface storage, int times) throws Exception {
        for (int n = 1; n <= times; n++) {
            int version = ++updates;
            for (int i = 0; i < OBJECTS; i++) {
                int object = i;
                storage.guaranteedUpdate(key(i), false, Preconditions.NONE, (cur, rev) -> configMap(object, version));
            }
        }
        return size(dir.resolve("compaction.db"));
    }

    private static long size(Path db) throws Exception {
        Path wal = db.resolveSibling(db.getFileName() + "-wal");
        return Files.size(db) + (Files.exists(wal) ? Files.size(wal) : 0);
    }

    private static String key(int i) {
        return "/configmaps/default/cm-" + i;
    }

    private static ObjectNode configMap(int i, int version) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.put("apiVersion", "v1").put("kind", "ConfigMap");
        obj.putObject("metadata").put("name", "cm-" + i).put("namespace", "default");
        obj.putObject("data").put("v", PAYLOAD + version);
        return obj;
    }
}
