package io.kubelix.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.WatchOption;
import io.kubelix.api.storage.WatchEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/** The backend's open watches: started on its etcd client, asked for progress when idle, ended with it. */
final class EtcdWatches {
    /** How many events a watch's consumer may fall behind before the watch is ended. */
    static final int QUEUE_SIZE = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(EtcdWatches.class);

    private final EtcdClient etcd;
    private final ScheduledExecutorService scheduler;
    private final Set<EtcdWatch> open = ConcurrentHashMap.newKeySet();

    EtcdWatches(EtcdClient etcd, ScheduledExecutorService scheduler) {
        this.etcd = etcd;
        this.scheduler = scheduler;
    }

    /**
     * Starts a watch of {@code key} (with {@code range}'s end, if any) delivering the events after
     * {@code startRevision}, preceded by {@code initial}.
     */
    EtcdWatch start(String description, ByteSequence key, ByteSequence rangeEnd, boolean progressNotify,
                    WatchEventFilter filter, long startRevision, List<WatchEvent> initial) {
        EtcdWatch.Starter starter = (from, listener) -> {
            WatchOption.Builder option = WatchOption.builder().withPrevKV(true).withProgressNotify(progressNotify)
                    .withRevision(from);
            if (rangeEnd != null) {
                option.withRange(rangeEnd);
            }
            return etcd.client().getWatchClient().watch(key, option.build(), listener);
        };
        EtcdWatch.ProgressCheck check = (after, upTo) -> etcd.unchanged(key, rangeEnd, after, upTo);
        EtcdWatch w = new EtcdWatch(description, filter, progressNotify, QUEUE_SIZE, startRevision, initial, starter,
                check, scheduler, open::remove);
        open.add(w);
        w.start();
        LOG.debug("watch {} started", description);
        return w;
    }

    /** Requests a progress notification for each watch that wants bookmarks and was idle for {@code idleNanos}. */
    void requestProgress(long idleNanos) {
        for (EtcdWatch w : open) {
            w.requestProgressIfIdle(idleNanos);
        }
    }

    int size() {
        return open.size();
    }

    /** Ends every open watch (the backend is going away); their consumers see the streams end. */
    void closeAll() {
        for (EtcdWatch w : List.copyOf(open)) {
            w.end();
            open.remove(w);
        }
    }
}
