package io.kubelix.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Watch.Watcher;
import io.etcd.jetcd.options.WatchOption;
import io.kubelix.api.storage.WatchEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The backend's open watches: started on its etcd client, asked for progress when idle, ended with it. */
final class EtcdWatches {
    /** How many events a watch's consumer may fall behind before the watch is ended. */
    static final int QUEUE_SIZE = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(EtcdWatches.class);

    private final EtcdClient etcd;
    private final Set<EtcdWatch> open = ConcurrentHashMap.newKeySet();

    EtcdWatches(EtcdClient etcd) {
        this.etcd = etcd;
    }

    EtcdWatch start(String description, ByteSequence key, WatchOption option, WatchEventFilter filter,
                    boolean progressNotify, long startRevision, List<WatchEvent> initial) {
        EtcdWatch w = new EtcdWatch(description, filter, progressNotify, QUEUE_SIZE, startRevision, initial, open::remove);
        open.add(w);
        Watcher watcher;
        try {
            watcher = etcd.client().getWatchClient().watch(key, option, w);
        } catch (RuntimeException e) {
            open.remove(w);
            throw EtcdErrors.map(e, description, startRevision);
        }
        w.attach(watcher);
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
            w.close();
        }
    }
}
