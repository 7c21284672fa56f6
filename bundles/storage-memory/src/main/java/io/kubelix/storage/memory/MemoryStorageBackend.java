package io.kubelix.storage.memory;

import io.kubelix.support.storage.JsonCodec;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The in-memory backend ({@code --storage-backend=memory}): every resource's storage over one
 * {@link MvccStore}, so they share one revision sequence. Data lives as long as this component;
 * configuration changes are applied in place ({@link Modified}) so they keep it.
 */
@Component(service = StorageBackend.class, property = StorageBackend.NAME_PROPERTY + "=memory",
        configurationPid = MemoryStorageBackend.PID)
@Designate(ocd = MemoryStorageConfig.class)
public final class MemoryStorageBackend implements StorageBackend {
    static final String PID = "io.kubelix.storage.memory";
    private static final Logger LOG = LoggerFactory.getLogger(MemoryStorageBackend.class);

    private final MvccStore store;
    private final JsonCodec codec = new JsonCodec(new ObjectMapper());
    /** One daemon thread for the whole backend: progress notifications only. */
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelix-memory-storage-bookmarks");
        t.setDaemon(true);
        return t;
    });
    private volatile int watchQueueSize;
    private ScheduledFuture<?> bookmarks;

    @Activate
    public MemoryStorageBackend(MemoryStorageConfig config) {
        this(config.event$_$history$_$size(), config.watch$_$queue$_$size(),
                Duration.ofMillis(config.progress$_$notify$_$interval$_$ms()));
    }

    MemoryStorageBackend(int eventHistorySize, int watchQueueSize, Duration progressNotifyInterval) {
        this.store = new MvccStore(eventHistorySize);
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
        store.endWatches();
        LOG.info("Memory storage stopped at revision {}: {} keys dropped, {} watches ended",
                store.currentRevision(), store.keyCount(), watches);
    }

    @Override
    public StorageInterface forResource(StorageConfig config) {
        return new MemoryStorage(config, store, codec, () -> watchQueueSize);
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
