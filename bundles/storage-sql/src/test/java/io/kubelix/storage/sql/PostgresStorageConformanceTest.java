package io.kubelix.storage.sql;

import io.kubelix.api.storage.StorageBackend;
import io.kubelix.storage.testing.StorageConformanceTest;
import io.kubelix.testing.postgres.PostgresProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The whole storage.Interface conformance suite against the postgres backend, on a PostgreSQL the
 * test starts on loopback; each test gets a new, empty schema.
 */
class PostgresStorageConformanceTest extends StorageConformanceTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static PostgresProcess postgres;

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

    static PostgresStorageBackend backend(String url) {
        return new PostgresStorageBackend(SqlSettings.read(Map.of("storage-sql-url", url,
                "etcd-compaction-interval", "0", "progress-notify-interval-ms", "200"), name -> null), null);
    }

    @Override
    protected StorageBackend newBackend() {
        try {
            return backend(postgres.newSchema(new org.postgresql.Driver(), "conformance_" + SCHEMAS.incrementAndGet()));
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    protected void closeBackend(StorageBackend backend) {
        ((PostgresStorageBackend) backend).deactivate();
    }

    @Override
    protected void compact(StorageBackend backend, long revision) {
        try {
            ((PostgresStorageBackend) backend).backend().store().compact(revision);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
