package io.kubelix.storage.sql;

import io.kubelix.support.flags.FrameworkProperties;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import org.osgi.framework.BundleContext;
import io.kubelix.api.metrics.MetricsRegistry;
import io.kubelix.support.storage.MeasuredStorage;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

import java.util.Map;

/**
 * The embedded SQLite backend ({@code --storage-backend=sqlite}, the default of {@code bin/kubelix}):
 * the database is {@code kubelix.db} in the data directory unless {@code --storage-sql-url} names a
 * file. Opened at activation when {@code kubelix.storage-backend} names it, else on first use. A
 * configuration change restarts the component; core-runtime rebinds its storages to the new one.
 */
@Component(service = StorageBackend.class, property = StorageBackend.NAME_PROPERTY + "=" + SqliteStorageBackend.NAME,
        configurationPid = SqliteStorageBackend.PID)
@Designate(ocd = SqlStorageConfig.class)
public final class SqliteStorageBackend implements StorageBackend {
    static final String NAME = "sqlite";
    static final String PID = "io.kubelix.storage.sql";

    private final SqlBackend backend;

    /** kubelix_sql_request_duration_seconds, _requests_total and _request_errors_total, as kube's etcd_*; none in tests. */
    private MeasuredStorage.Metrics metrics;

    @Activate
    public SqliteStorageBackend(Map<String, Object> config, BundleContext context, @Reference MetricsRegistry registry) {
        this(SqlSettings.read(config, FrameworkProperties.withContainerDefaults(context::getProperty)), context);
        this.metrics = MeasuredStorage.Metrics.register(registry, "kubelix_sql", "SQL storage");
        if (NAME.equals(FrameworkProperties.withContainerDefaults(context::getProperty)
                .apply(FrameworkProperties.STORAGE_BACKEND))) {
            backend.store();
        }
    }

    SqliteStorageBackend(SqlSettings settings, BundleContext context) {
        this.backend = new SqlBackend(NAME, settings, () -> new SqliteDialect(settings.sqliteFile(),
                settings.sqliteSynchronous()), context);
    }

    @Deactivate
    void deactivate() {
        backend.stop();
    }

    @Override
    public StorageInterface forResource(StorageConfig config) {
        StorageInterface storage = backend.forResource(config);
        return metrics == null ? storage : new MeasuredStorage(storage, metrics, config.groupResource().toString());
    }

    SqlBackend backend() {
        return backend;
    }
}
