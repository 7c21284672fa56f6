package io.kubelix.storage.sql;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.server.HealthChecker;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.support.time.GoDuration;
import io.kubelix.support.storage.JsonCodec;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Hashtable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One SQL backend while it is in use: the database ({@link SqlStore}), one daemon thread for
 * compaction and watch bookmarks, and a health check named after the dialect. Started on first
 * use, so an installed but unused backend opens no database and runs no thread.
 */
final class SqlBackend {
    private static final Logger LOG = LoggerFactory.getLogger(SqlBackend.class);

    private final String name;
    private final SqlSettings settings;
    private final Supplier<Dialect> dialect;
    private final BundleContext context;
    private final JsonCodec codec = new JsonCodec(new ObjectMapper());
    private SqlStore store;
    private ScheduledExecutorService scheduler;
    private ServiceRegistration<HealthChecker> health;
    private AutoCloseable listener;
    private boolean stopped;

    SqlBackend(String name, SqlSettings settings, Supplier<Dialect> dialect, BundleContext context) {
        this.name = name;
        this.settings = settings;
        this.dialect = dialect;
        this.context = context;
    }

    StorageInterface forResource(StorageConfig config) {
        return new SqlStorage(config, store(), codec.forResource(config, ""), settings::watchQueueSize);
    }

    /**
     * The open database, opened on first use. Steps, in order: 1 the dialect (its settings checked),
     * 2 the database and its tables, 3 the thread with compaction and bookmarks, 4 the listener of
     * other servers' writes (PostgreSQL), 5 the health check.
     */
    synchronized SqlStore store() {
        if (stopped) {
            // A 503, as a stopping storage-memory answers: a caller that took this backend just before
            // its bundle was updated runs the operation again on the next revision.
            throw StatusException.serviceUnavailable("the " + name + " storage backend has been stopped");
        }
        if (store != null) {
            return store;
        }
        Dialect d = dialect.get();
        SqlStore s;
        try {
            s = new SqlStore(d);
        } catch (SQLException e) {
            d.close();
            throw new IllegalStateException("cannot open the " + name + " database " + d.describe() + ": "
                    + e.getMessage(), e);
        }
        ScheduledExecutorService threads = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-" + name + "-maintenance");
            t.setDaemon(true);
            return t;
        });
        Duration interval = settings.compactionInterval();
        if (!interval.isZero()) {
            Compactor compactor = new Compactor(s);
            threads.scheduleWithFixedDelay(guard("compaction", compactor::run), interval.toMillis(),
                    interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        long idle = settings.progressNotify().toNanos();
        long tick = Math.max(idle / 4, TimeUnit.MILLISECONDS.toNanos(5));
        threads.scheduleAtFixedRate(guard("watch bookmarks", () -> s.bookmarkIdleWatchers(idle)), tick, tick,
                TimeUnit.NANOSECONDS);
        listener = d.listen(s);
        if (context != null) {
            health = context.registerService(HealthChecker.class, new SqlHealthChecker(name, s), new Hashtable<>());
        }
        store = s;
        scheduler = threads;
        LOG.info("{} storage started: database {}, at revision {}, compaction {}", name, d.describe(),
                s.dispatchedRevision(), interval.isZero() ? "off" : "every " + GoDuration.format(interval));
        return s;
    }

    synchronized boolean started() {
        return store != null;
    }

    /** The reverse of {@link #store()}: health check, listener, thread, watches and connections, driver. */
    synchronized void stop() {
        stopped = true;
        if (store == null) {
            return;
        }
        if (health != null) {
            try {
                health.unregister();
            } catch (IllegalStateException alreadyGone) {
                // the framework unregistered it with the bundle
            }
        }
        try {
            listener.close();
        } catch (Exception e) {
            LOG.warn("{} storage: stopping the listener failed: {}", name, e.getMessage());
        }
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int watches = store.watcherCount();
        long revision = store.dispatchedRevision();
        store.close();
        store.dialect().close();
        LOG.info("{} storage stopped at revision {}: {} watches ended", name, revision, watches);
        store = null;
    }

    private Runnable guard(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("{} storage {} failed: {}", name, what, e.getMessage());
            }
        };
    }
}
