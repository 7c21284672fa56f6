package io.kubelix.storage.sql;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the SQL backends (pid {@code io.kubelix.storage.sql}, shared by {@code sqlite}
 * and {@code postgres}); "$_$" in a name is "-". A setting left out falls back to the framework
 * property {@code kubelix.<name>} that {@code bin/kubelix} sets from the flag of the same name,
 * then to the default.
 */
@ObjectClassDefinition(name = "Kubelix SQL storage",
        description = "The SQL storage backends (--storage-backend=sqlite, the default, or postgres).")
public @interface SqlStorageConfig {

    @AttributeDefinition(name = "Database URL", required = false,
            description = "sqlite: the database file (default <data-dir>/kubelix.db); postgres:"
                    + " postgres://user:password@host:port/database or jdbc:postgresql://... (--storage-sql-url).")
    String storage$_$sql$_$url();

    @AttributeDefinition(name = "Compaction interval",
            description = "How often history is compacted and its space given back, such as 5m, 1h or 90s; 0 turns"
                    + " compaction off (--etcd-compaction-interval, kube-apiserver's flag for it).")
    String etcd$_$compaction$_$interval() default SqlSettings.DEFAULT_COMPACTION_INTERVAL;

    @AttributeDefinition(name = "SQLite synchronous", options = {
            @org.osgi.service.metatype.annotations.Option(label = "FULL", value = "FULL"),
            @org.osgi.service.metatype.annotations.Option(label = "NORMAL", value = "NORMAL")},
            description = "FULL: every commit is on disk before it is acknowledged (survives a power loss);"
                    + " NORMAL: survives a crash of the server, but a power loss may undo the last commits.")
    String sqlite$_$synchronous() default "FULL";

    @AttributeDefinition(name = "Watch queue size", min = "1",
            description = "How many events a watcher may fall behind before its watch is ended and its client"
                    + " must re-watch.")
    int watch$_$queue$_$size() default 10000;

    @AttributeDefinition(name = "Progress notify interval (ms)", min = "10",
            description = "How long a watch that asked for progress notifications stays idle before it gets a"
                    + " BOOKMARK.")
    long progress$_$notify$_$interval$_$ms() default 1000;
}
