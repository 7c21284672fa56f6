package io.kubelix.storage.sql;

import io.kubelix.api.storage.StorageBackend;
import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.runtime.storage.cacher.CacherOptions;
import io.kubelix.storage.testing.StorageConformanceTest;
import io.kubelix.storage.testing.ThroughTheWatchCache;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole storage.Interface conformance suite through core-runtime's watch cache (the Cacher
 * every resource's storage sits behind in a running server) over SQLite: what a server started
 * with {@code --storage-backend=sqlite} serves. Each test gets a new database file.
 */
@ExtendWith(ThroughTheWatchCache.class)
class SqliteCacherConformanceTest extends StorageConformanceTest {
    /** core-runtime's CacherConformanceTest options: a short bookmark interval keeps the bookmark tests fast. */
    private static final CacherOptions OPTIONS = new CacherOptions(1000, 1000, Duration.ofMillis(50),
            Duration.ofMillis(200), Duration.ofSeconds(3));
    @TempDir
    Path dir;
    private SqliteStorageBackend sqlite;
    private final List<Cacher> cachers = new ArrayList<>();

    @Override
    protected StorageBackend newBackend() {
        sqlite = SqliteTestSupport.backend(dir.resolve("cacher-conformance.db"));
        return config -> {
            Cacher c = new Cacher(sqlite.forResource(config), config.groupResource(), config.resourcePrefix(), OPTIONS);
            synchronized (cachers) {
                cachers.add(c);
            }
            return c;
        };
    }

    @Override
    protected void closeBackend(StorageBackend backend) {
        synchronized (cachers) {
            cachers.forEach(Cacher::stop);
            cachers.clear();
        }
        sqlite.deactivate();
    }

    @Override
    protected void compact(StorageBackend backend, long revision) {
        try {
            sqlite.backend().store().compact(revision);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
