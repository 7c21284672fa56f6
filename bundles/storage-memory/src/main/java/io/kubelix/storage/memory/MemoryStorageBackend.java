package io.kubelix.storage.memory;

import io.kubelix.support.storage.JsonCodec;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The in-memory backend ({@code --storage-backend=memory}): every resource's storage over one
 * {@link MvccStore}, so they share one revision sequence. Configuration changes are applied in
 * place ({@link Modified}) so they keep the data. When the component stops it writes its objects
 * with their history in the retained window to the bundle's data area, which the framework keeps
 * across an update of the bundle, and the next version reads them back: updating the plugin keeps
 * every object and its resourceVersion, and a watch from any revision the old version still held
 * goes on in the new one, however many restarts came in between. The data area does not outlive
 * the server (the bundle cache is cleaned at every start) nor an uninstall.
 */
@Component(service = StorageBackend.class, property = StorageBackend.NAME_PROPERTY + "=memory",
        configurationPid = MemoryStorageBackend.PID)
@Designate(ocd = MemoryStorageConfig.class)
public final class MemoryStorageBackend implements StorageBackend {
    static final String PID = "io.kubelix.storage.memory";
    private static final Logger LOG = LoggerFactory.getLogger(MemoryStorageBackend.class);

    /** The file the objects are handed over in, from one version of the bundle to the next; null without one. */
    private static final String HANDOVER = "handover.snapshot";

    private final MvccStore store;
    private final Path handover;
    private final JsonCodec codec = new JsonCodec(new ObjectMapper());
    /** One daemon thread for the whole backend: progress notifications only. */
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelix-memory-storage-bookmarks");
        t.setDaemon(true);
        return t;
    });
    private volatile int watchQueueSize;
    private ScheduledFuture<?> bookmarks;
    /** Whether the whole framework is stopping (no next version of the bundle will come); never outside one. */
    private java.util.function.BooleanSupplier frameworkStopping = () -> false;

    @Activate
    public MemoryStorageBackend(MemoryStorageConfig config, BundleContext context) {
        this(config.event$_$history$_$size(), config.watch$_$queue$_$size(),
                Duration.ofMillis(config.progress$_$notify$_$interval$_$ms()), handoverFile(context));
        if (context != null) {
            frameworkStopping = () -> {
                org.osgi.framework.Bundle framework = context.getBundle(org.osgi.framework.Constants.SYSTEM_BUNDLE_ID);
                return framework != null && framework.getState() == org.osgi.framework.Bundle.STOPPING;
            };
        }
    }

    /** A backend outside a framework (tests, embedding): nothing is handed over between instances. */
    public MemoryStorageBackend(MemoryStorageConfig config) {
        this(config, null);
    }

    MemoryStorageBackend(int eventHistorySize, int watchQueueSize, Duration progressNotifyInterval) {
        this(eventHistorySize, watchQueueSize, progressNotifyInterval, null);
    }

    MemoryStorageBackend(int eventHistorySize, int watchQueueSize, Duration progressNotifyInterval, Path handover) {
        this.store = new MvccStore(eventHistorySize);
        this.handover = handover;
        takeOver();
        this.watchQueueSize = requirePositive("watch-queue-size", watchQueueSize);
        scheduleBookmarks(progressNotifyInterval);
        LOG.info("Memory storage started: event-history-size={}, watch-queue-size={}, progress-notify-interval={}ms",
                eventHistorySize, watchQueueSize, progressNotifyInterval.toMillis());
    }

    @Modified
    void modified(MemoryStorageConfig config) {
        store.resizeHistory(config.event$_$history$_$size());
        watchQueueSize = requirePositive("watch-queue-size", config.watch$_$queue$_$size());
        scheduleBookmarks(Duration.ofMillis(config.progress$_$notify$_$interval$_$ms()));
        LOG.info("Memory storage reconfigured: event-history-size={}, watch-queue-size={}, progress-notify-interval={}ms"
                        + " (new watch queue size applies to new watches)", config.event$_$history$_$size(),
                config.watch$_$queue$_$size(), config.progress$_$notify$_$interval$_$ms());
    }

    @Deactivate
    void deactivate() {
        scheduler.shutdownNow();
        int watches = store.watcherCount();
        store.close();
        // A framework shutdown is no update of the bundle: nothing comes to take the objects over.
        boolean stopping = frameworkStopping.getAsBoolean();
        int kept = stopping ? -1 : handOver();
        LOG.info("Memory storage stopped at revision {}: {} watches ended, {}", store.currentRevision(), watches,
                kept >= 0 ? kept + " keys kept for the bundle's next version"
                        : store.keyCount() + " keys dropped" + (stopping ? " (the server stops)" : ""));
    }

    /** The objects and history of the bundle's previous version, when it left them in the data area. */
    private void takeOver() {
        if (handover == null || !Files.exists(handover)) {
            return;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(handover)))) {
            int n = store.readSnapshot(in);
            LOG.info("Memory storage took over {} keys at revision {}, with their history from revision {}, from the"
                    + " bundle's previous version", n, store.currentRevision(), store.compactedRevision());
        } catch (IOException e) {
            LOG.warn("Memory storage starts empty: cannot read what the bundle's previous version left in {}: {}",
                    handover, e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(handover);
            } catch (IOException e) {
                LOG.warn("Memory storage: cannot delete {}: {}", handover, e.getMessage());
            }
        }
    }

    /** Writes the objects and history for the bundle's next version; returns the live keys, or -1 with nowhere to write. */
    private int handOver() {
        if (handover == null) {
            return -1;
        }
        Path tmp = handover.resolveSibling(HANDOVER + ".tmp");
        try {
            int n;
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
                n = store.writeSnapshot(out);
            }
            Files.move(tmp, handover, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return n;
        } catch (IOException e) {
            LOG.warn("Memory storage cannot keep its objects for the bundle's next version in {}: {}", handover,
                    e.getMessage());
            return -1;
        }
    }

    private static Path handoverFile(BundleContext context) {
        File f = context == null ? null : context.getDataFile(HANDOVER);
        return f == null ? null : f.toPath();
    }

    @Override
    public StorageInterface forResource(StorageConfig config) {
        return new MemoryStorage(config, store, codec.forResource(config, ""), () -> watchQueueSize);
    }

    /** Compacts history up to {@code revision} now (etcd's Compact); for tests. */
    void compact(long revision) {
        store.compact(revision);
    }

    private synchronized void scheduleBookmarks(Duration interval) {
        if (bookmarks != null) {
            bookmarks.cancel(false);
        }
        long idleNanos = Math.max(interval.toNanos(), TimeUnit.MILLISECONDS.toNanos(10));
        long tick = Math.max(idleNanos / 4, TimeUnit.MILLISECONDS.toNanos(5));
        bookmarks = scheduler.scheduleAtFixedRate(() -> {
            try {
                store.bookmarkIdleWatchers(idleNanos);
            } catch (RuntimeException e) {
                LOG.warn("Sending watch bookmarks failed", e);
            }
        }, tick, tick, TimeUnit.NANOSECONDS);
    }

    private static int requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
        return value;
    }
}
