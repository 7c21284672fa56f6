package io.kubelix.storage.sql;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** SQLite backends on files of a test's temporary directory, without compaction of their own. */
final class SqliteTestSupport {

    private SqliteTestSupport() {
    }

    static SqlSettings settings(Path file, String compactionInterval) {
        return SqlSettings.read(Map.of("storage-sql-url", file.toString(), "etcd-compaction-interval",
                compactionInterval, "progress-notify-interval-ms", "200"), name -> null);
    }

    static SqliteStorageBackend backend(Path file) {
        return new SqliteStorageBackend(settings(file, "0"), null);
    }

    static Duration progressNotifyTimeout() {
        return Duration.ofSeconds(10);
    }
}
