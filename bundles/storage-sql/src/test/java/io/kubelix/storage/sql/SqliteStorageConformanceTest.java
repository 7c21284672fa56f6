package io.kubelix.storage.sql;

import io.kubelix.api.storage.StorageBackend;
import io.kubelix.storage.testing.StorageConformanceTest;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/** The whole storage.Interface conformance suite against the SQLite backend, each test on a new database file. */
class SqliteStorageConformanceTest extends StorageConformanceTest {
    private static final AtomicInteger FILES = new AtomicInteger();
    @TempDir
    Path dir;

    @Override
    protected StorageBackend newBackend() {
        return SqliteTestSupport.backend(dir.resolve("conformance-" + FILES.incrementAndGet() + ".db"));
    }

    @Override
    protected void closeBackend(StorageBackend backend) {
        ((SqliteStorageBackend) backend).deactivate();
    }

    @Override
    protected void compact(StorageBackend backend, long revision) {
        try {
            ((SqliteStorageBackend) backend).backend().store().compact(revision);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
