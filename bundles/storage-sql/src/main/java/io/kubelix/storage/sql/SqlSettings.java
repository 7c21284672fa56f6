package io.kubelix.storage.sql;

import io.kubelix.support.time.GoDuration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The settings of a SQL backend, each read from its OSGi configuration, else from the framework
 * property {@code kubelix.<name>}, else its default; validated so a bad value fails activation
 * with a message naming the setting.
 *
 * @param url                the database: a file for sqlite, a URL for postgres; null when not given
 * @param dataDir            the server's data directory, or null
 * @param compactionInterval how often to compact; zero for never
 * @param sqliteSynchronous  FULL or NORMAL
 * @param watchQueueSize     how far a watcher may fall behind
 * @param progressNotify     how long a watch that asked for bookmarks may stay idle
 */
record SqlSettings(String url, Path dataDir, Duration compactionInterval, String sqliteSynchronous,
                   int watchQueueSize, Duration progressNotify) {
    static final String DEFAULT_COMPACTION_INTERVAL = "5m";
    /** The SQLite database's name in the data directory. */
    static final String SQLITE_FILE = "kubelix.db";

    static SqlSettings read(Map<String, ?> config, Function<String, String> frameworkProperty) {
        Function<String, String> get = name -> {
            Object v = config.get(name);
            if (v != null && !v.toString().isBlank()) {
                return v.toString().trim();
            }
            String p = frameworkProperty.apply("kubelix." + name);
            return p != null && !p.isBlank() ? p.trim() : null;
        };
        String dir = get.apply("data-dir");
        Duration interval = GoDuration.parseFlag("etcd-compaction-interval",
                orDefault(get.apply("etcd-compaction-interval"), DEFAULT_COMPACTION_INTERVAL));
        String synchronous = orDefault(get.apply("sqlite-synchronous"), "FULL").toUpperCase(Locale.ROOT);
        if (!synchronous.equals("FULL") && !synchronous.equals("NORMAL")) {
            throw new IllegalArgumentException("invalid sqlite-synchronous \"" + synchronous + "\": must be FULL or NORMAL");
        }
        int queue = Integer.parseInt(orDefault(get.apply("watch-queue-size"), "10000"));
        if (queue < 1) {
            throw new IllegalArgumentException("watch-queue-size must be positive: " + queue);
        }
        long progressMs = Long.parseLong(orDefault(get.apply("progress-notify-interval-ms"), "1000"));
        return new SqlSettings(get.apply("storage-sql-url"), dir == null ? null : Path.of(dir), interval, synchronous,
                queue, Duration.ofMillis(Math.max(10, progressMs)));
    }

    /** The SQLite database file: the URL's path when given, else {@code kubelix.db} in the data directory. */
    Path sqliteFile() {
        String u = url;
        if (u == null) {
            if (dataDir == null) {
                throw new IllegalArgumentException("the sqlite storage needs --data-dir or --storage-sql-url");
            }
            return checkedDirectory(dataDir).resolve(SQLITE_FILE);
        }
        for (String scheme : new String[] {"jdbc:sqlite:", "sqlite://", "sqlite:"}) {
            if (u.startsWith(scheme)) {
                u = u.substring(scheme.length());
                break;
            }
        }
        if (u.isEmpty() || u.contains("://") || u.startsWith(":memory:")) {
            throw new IllegalArgumentException("invalid storage-sql-url \"" + url
                    + "\" for the sqlite storage: must be the path of a database file");
        }
        Path file = Path.of(u).toAbsolutePath();
        checkedDirectory(file.getParent());
        return file;
    }

    /** The postgres URL, required. */
    String postgresUrl() {
        if (url == null) {
            throw new IllegalArgumentException("the postgres storage needs --storage-sql-url, such as"
                    + " postgres://user:password@host:5432/kubelix");
        }
        return url;
    }

    private static Path checkedDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("the database directory " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException("the database directory " + dir + " is not writable");
        }
        return dir;
    }

    private static String orDefault(String v, String d) {
        return v == null ? d : v;
    }
}
