package io.kubelix.storage.etcd;

import io.kubelix.support.flags.FrameworkProperties;
import io.kubelix.support.storage.JsonCodec;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;

/**
 * The etcd v3 backend ({@code --storage-backend=etcd3}). It connects when it is put to use: at
 * activation when the framework property {@code kubelix.storage-backend} names it, else on the first
 * {@link #forResource} call, so servers on another backend that merely have this bundle installed
 * see no connection, no thread and no {@code etcd} health check. A configuration change restarts
 * the component (and so the connection); core-runtime rebinds its storages to the new instance.
 */
@Component(service = StorageBackend.class, property = StorageBackend.NAME_PROPERTY + "=" + EtcdStorageBackend.NAME,
        configurationPid = EtcdStorageBackend.PID)
@Designate(ocd = EtcdStorageConfig.class)
public final class EtcdStorageBackend implements StorageBackend {
    static final String NAME = "etcd3";
    static final String PID = "io.kubelix.storage.etcd";
    /** How long a watch that wants bookmarks may stay idle before etcd is asked for its progress. */
    static final Duration PROGRESS_NOTIFY_INTERVAL = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(EtcdStorageBackend.class);

    private final EtcdSettings settings;
    private final Duration progressNotifyInterval;
    private final BundleContext context;
    private final Keys keys;
    private final JsonCodec codec = new JsonCodec(new ObjectMapper());
    private EtcdSession session;
    private boolean stopped;

    /** kube's etcd_request_duration_seconds, etcd_requests_total and etcd_request_errors_total; none in tests. */
    private MeasuredStorage.Metrics metrics;

    @Activate
    public EtcdStorageBackend(Map<String, Object> config, BundleContext context, @Reference MetricsRegistry registry) {
        this(EtcdSettings.read(config, context::getProperty), PROGRESS_NOTIFY_INTERVAL, context);
        this.metrics = MeasuredStorage.Metrics.register(registry, "etcd", "Etcd");
        if (NAME.equals(FrameworkProperties.withContainerDefaults(context::getProperty)
                .apply(FrameworkProperties.STORAGE_BACKEND))) {
            session();
        } else {
            LOG.debug("etcd3 storage idle until used: --storage-backend is not etcd3");
        }
    }

    EtcdStorageBackend(EtcdSettings settings, Duration progressNotifyInterval, BundleContext context) {
        this.settings = settings;
        this.progressNotifyInterval = progressNotifyInterval;
        this.context = context;
        this.keys = new Keys(settings.prefix());
    }

    @Deactivate
    synchronized void deactivate() {
        stopped = true;
        if (session != null) {
            session.stop();
            session = null;
        }
    }

    @Override
    public StorageInterface forResource(StorageConfig config) {
        EtcdSession s = session();
        StorageInterface storage = new EtcdStorage(config, s.client(), keys,
                codec.forResource(config, keys.prefix()), s.watches());
        return metrics == null ? storage : new MeasuredStorage(storage, metrics, config.groupResource().toString());
    }

    synchronized boolean started() {
        return session != null;
    }

    EtcdSettings settings() {
        return settings;
    }

    /** The running session, started on first use. */
    synchronized EtcdSession session() {
        if (stopped) {
            throw new IllegalStateException("the etcd3 storage backend has been stopped");
        }
        if (session == null) {
            session = new EtcdSession(settings, progressNotifyInterval, context);
        }
        return session;
    }
}
