package io.kubelix.storage.etcd;

import io.kubelix.api.server.HealthChecker;
import io.kubelix.support.time.GoDuration;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the backend runs while it is in use: the etcd client, the open watches, one daemon thread
 * for compaction, watch progress requests and resuming broken watch streams, and the {@code etcd}
 * health check. Started on first use, so an installed but unused etcd backend holds no connection
 * and no thread.
 */
final class EtcdSession {
    private static final Logger LOG = LoggerFactory.getLogger(EtcdSession.class);

    private final EtcdClient etcd;
    private final EtcdWatches watches;
    private final ScheduledExecutorService scheduler;
    private final ServiceRegistration<HealthChecker> health;

    /**
     * Steps, in order: 1 the client (it connects lazily), 2 the scheduler with compaction and
     * progress requests, and the watches that use it, 3 the health check, when there is a framework to register it with.
     */
    EtcdSession(EtcdSettings settings, Duration progressNotifyInterval, BundleContext context) {
        this.etcd = new EtcdClient(settings);
        ClientThreads.opened();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-etcd-maintenance");
            t.setDaemon(true);
            return t;
        });
        this.watches = new EtcdWatches(etcd, scheduler);
        Duration interval = settings.compactionInterval();
        try {
            if (!interval.isZero()) {
                Compactor compactor = new Compactor(etcd);
                scheduler.scheduleWithFixedDelay(guard("compaction", compactor::run), 0, interval.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
            long idle = progressNotifyInterval.toNanos();
            long tick = Math.max(idle / 4, TimeUnit.MILLISECONDS.toNanos(50));
            scheduler.scheduleAtFixedRate(guard("watch progress", () -> watches.requestProgress(idle)), tick, tick,
                    TimeUnit.NANOSECONDS);
            this.health = context == null ? null
                    : context.registerService(HealthChecker.class, new EtcdHealthChecker(etcd), new Hashtable<>());
        } catch (RuntimeException e) {
            scheduler.shutdownNow();
            closeClient();
            throw e;
        }
        LOG.info("etcd3 storage started: etcd-servers={}, etcd-prefix={}, tls={}, client-cert={},"
                        + " etcd-compaction-interval={}", etcd.target(), settings.prefix(), settings.tls(),
                settings.certFile() != null, interval.isZero() ? "off" : GoDuration.format(interval));
    }

    EtcdClient client() {
        return etcd;
    }

    EtcdWatches watches() {
        return watches;
    }

    /** The reverse of the constructor: health check, scheduler, watches, client, then its threads. */
    void stop() {
        if (health != null) {
            try {
                health.unregister();
            } catch (IllegalStateException alreadyGone) {
                // the framework unregistered it with the bundle
            }
        }
        scheduler.shutdownNow();
        int open = watches.size();
        watches.closeAll();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeClient();
        LOG.info("etcd3 storage stopped: {} watches ended", open);
    }

    /** Closes the client and, when it was the bundle's last, waits for the client threads to end. */
    private void closeClient() {
        etcd.close();
        try {
            List<String> left = ClientThreads.closed(Duration.ofSeconds(10));
            if (!left.isEmpty()) {
                LOG.warn("etcd client threads still running after close: {}", left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Runnable guard(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("etcd {} failed: {}", what, e.getMessage());
            }
        };
    }
}
