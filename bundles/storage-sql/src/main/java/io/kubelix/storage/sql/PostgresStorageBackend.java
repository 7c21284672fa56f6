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

import java.util.Map;

/**
 * The PostgreSQL backend ({@code --storage-backend=postgres} with {@code --storage-sql-url}), for
 * several servers sharing one database. Connected at activation when {@code kubelix.storage-backend}
 * names it, else on first use. A configuration change restarts the component; core-runtime
 * rebinds its storages to the new one. Its settings are those of {@link SqlStorageConfig}, the PID it
 * shares with the sqlite backend.
 */
@Component(service = StorageBackend.class, property = StorageBackend.NAME_PROPERTY + "=" + PostgresStorageBackend.NAME,
        configurationPid = PostgresStorageBackend.PID)
public final class PostgresStorageBackend implements StorageBackend {
    static final String NAME = "postgres";
    static final String PID = "io.kubelix.storage.sql";

    private final SqlBackend backend;

    /** kubelix_sql_request_duration_seconds, _requests_total and _request_errors_total, as kube's etcd_*; none in tests. */
    private MeasuredStorage.Metrics metrics;

    @Activate
    public PostgresStorageBackend(Map<String, Object> config, BundleContext context, @Reference MetricsRegistry registry) {
        this(SqlSettings.read(config, FrameworkProperties.withContainerDefaults(context::getProperty)), context);
        this.metrics = MeasuredStorage.Metrics.register(registry, "kubelix_sql", "SQL storage");
        if (NAME.equals(FrameworkProperties.withContainerDefaults(context::getProperty)
                .apply(FrameworkProperties.STORAGE_BACKEND))) {
            backend.store();
        }
    }

    PostgresStorageBackend(SqlSettings settings, BundleContext context) {
        this.backend = new SqlBackend(NAME, settings, () -> new PostgresDialect(settings.postgresUrl()), context);
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
