package io.kubelix.storage.memory;

import io.kubelix.support.storage.KeyRange;
import io.kubelix.support.storage.StoredEvent;
import io.kubelix.support.storage.QueuedWatch;
import io.kubelix.api.storage.StorageErrors;
import io.kubelix.api.errors.StatusException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The multi-version key space shared by every resource of the backend: one revision sequence,
 * a history per key and the event log of the retained window.
 *
 * <p>Writes are linearizable: each takes the single write lock, which appends the version and
 * the event, compacts what left the window, publishes the revision and only then hands the event
 * to watchers (without ever waiting on them). Reads take no lock: they pin the published
 * revision and read the versions at it, then check that the revision was not compacted meanwhile.
 */
final class MvccStore {
    private static final Logger LOG = LoggerFactory.getLogger(MvccStore.class);

    /** Visits one live key of a scan; returns false to stop. */
    @FunctionalInterface
    interface Visitor {
        boolean visit(String key, Version version);
    }

    /** The layout of {@link #writeSnapshot}; a version of this bundle reads only its own. */
    private static final int SNAPSHOT_FORMAT = 0x4b4d5301;

    private final ReentrantLock writeLock = new ReentrantLock();
    private final ConcurrentSkipListMap<String, KeyHistory> keys = new ConcurrentSkipListMap<>();
    private final CopyOnWriteArrayList<QueuedWatch> watchers = new CopyOnWriteArrayList<>();
    private final EventLog log;
    /** Like etcd, an empty store is at revision 1, so no list or object is ever at "0". */
    private volatile long revision = 1;
    private volatile long compactedRevision;
    /** Set when the bundle stops: writes are refused from then on; guarded by the write lock. */
    private boolean closed;

    MvccStore(int eventHistorySize) {
        this.log = new EventLog(eventHistorySize, revision);
        this.compactedRevision = log.compactedRevision();
    }

    long currentRevision() {
        return revision;
    }

    /** The oldest revision still readable; watches from it or later can be served. */
    long compactedRevision() {
        return compactedRevision;
    }

    /** The live version of {@code key} at {@code atRevision}, or null. */
    Version read(String key, long atRevision) {
        KeyHistory h = keys.get(key);
        return h == null ? null : h.at(atRevision);
    }

    /** The newest version of {@code key}, or null; the base of an optimistic write. */
    Version latest(String key) {
        KeyHistory h = keys.get(key);
        return h == null ? null : h.latest();
    }

    /** Visits the live keys of {@code range} at {@code atRevision} in key order, from {@code fromKey} on. */
    void scan(KeyRange range, String fromKey, long atRevision, Visitor visitor) {
        if (!range.recursive()) {
            Version v = read(range.key(), atRevision);
            if (v != null) {
                visitor.visit(range.key(), v);
            }
            return;
        }
        String from = fromKey != null && fromKey.compareTo(range.prefix()) > 0 ? fromKey : range.prefix();
        for (Map.Entry<String, KeyHistory> e : keys.tailMap(from, true).entrySet()) {
            if (!e.getKey().startsWith(range.prefix())) {
                return;
            }
            Version v = e.getValue().at(atRevision);
            if (v != null && !visitor.visit(e.getKey(), v)) {
                return;
            }
        }
    }

    /**
     * Writes {@code data} (null: deletes) if the key's newest version is still the one at
     * {@code expectedModRevision} (0: the key must be absent).
     *
     * @return the write's revision, or -1 when the key changed (the caller re-reads and retries)
     */
    long write(String key, long expectedModRevision, byte[] data) {
        writeLock.lock();
        try {
            if (closed) {
                // Nothing written after the hand-over may be acknowledged: it would not reach the next version.
                throw StatusException.serviceUnavailable("the memory storage is being stopped");
            }
            KeyHistory h = keys.get(key);
            Version cur = h == null ? null : h.latest();
            if ((cur == null ? 0 : cur.modRevision()) != expectedModRevision || cur == null && data == null) {
                return -1;
            }
            long rev = revision + 1;
            if (h == null) {
                h = new KeyHistory();
                keys.put(key, h);
            }
            h.put(rev, data);
            StoredEvent event = new StoredEvent(rev, key, data, cur == null ? null : cur.data());
            StoredEvent evicted = log.append(event);
            if (evicted != null) {
                compacted(List.of(evicted));
            }
            revision = rev;
            dispatch(event);
            return rev;
        } finally {
            writeLock.unlock();
        }
    }

    /** Compacts everything up to {@code rev} now, as etcd's Compact; later revisions stay readable. */
    void compact(long rev) {
        writeLock.lock();
        try {
            compacted(log.evictThrough(Math.min(rev, revision)));
        } finally {
            writeLock.unlock();
        }
    }

    /** Changes how many revisions are retained, compacting at once when the window shrinks. */
    void resizeHistory(int eventHistorySize) {
        writeLock.lock();
        try {
            if (eventHistorySize != log.capacity()) {
                compacted(log.resize(eventHistorySize));
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Registers a watcher of the writes after {@code fromRevision}, replaying those still in the
     * log, or one of the writes after the current revision when {@code fromRevision} is 0.
     *
     * @throws StatusException 410 Expired when {@code fromRevision} is older than the window
     */
    QueuedWatch watch(long fromRevision, WatchFactory factory) {
        writeLock.lock();
        try {
            if (closed) {
                // A watch registered now would never be ended: its caller watches the next version instead.
                throw StatusException.serviceUnavailable("the memory storage is being stopped");
            }
            if (fromRevision != 0 && fromRevision < compactedRevision) {
                LOG.debug("Refused watch from revision {}: compacted up to {}", fromRevision, compactedRevision);
                throw StorageErrors.tooOldResourceVersion(fromRevision, compactedRevision);
            }
            QueuedWatch w = factory.create(fromRevision == 0 ? revision : fromRevision);
            LOG.debug("Watch of {} on {} from revision {} (current {})", w.resource(), w.range(), w.startRevision(), revision);
            if (fromRevision != 0) {
                List<StoredEvent> replay = new ArrayList<>();
                log.forEachAfter(fromRevision, e -> {
                    if (w.range().matches(e.key())) {
                        replay.add(e);
                    }
                });
                w.addBacklog(replay);
            }
            watchers.add(w);
            return w;
        } finally {
            writeLock.unlock();
        }
    }

    /** Makes a watcher starting after a revision the store chooses under its lock. */
    @FunctionalInterface
    interface WatchFactory {
        QueuedWatch create(long startRevision);
    }

    void unregister(QueuedWatch w) {
        watchers.remove(w);
    }

    /**
     * RequestWatchProgress: a BOOKMARK at the current revision, queued behind every event already
     * handed to the watcher, so the watcher learns it has seen everything up to now.
     */
    void bookmarkNow(QueuedWatch w) {
        writeLock.lock();
        try {
            w.bookmarkNow(revision);
        } finally {
            writeLock.unlock();
        }
    }

    /** Sends a BOOKMARK to every idle watcher that asked for progress notifications. */
    void bookmarkIdleWatchers(long idleNanos) {
        writeLock.lock();
        try {
            for (QueuedWatch w : watchers) {
                w.bookmarkIfIdle(revision, idleNanos);
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Refuses every later write (503) and ends every watch; their clients see the streams end, those
     * asking for progress notifications after a BOOKMARK at the final revision (the one the store
     * hands over at), so they may watch the bundle's next version from there.
     */
    void close() {
        writeLock.lock();
        try {
            closed = true;
            long at = revision;
            watchers.forEach(w -> w.endAt(at));
            watchers.clear();
        } finally {
            writeLock.unlock();
        }
    }

    int watcherCount() {
        return watchers.size();
    }

    /**
     * Writes one consistent state: the current revision and every live key with the revision of its
     * last write and its bytes. History is not written.
     *
     * @return the keys written
     */
    int writeSnapshot(DataOutputStream out) throws IOException {
        writeLock.lock();
        try {
            int n = 0;
            out.writeInt(SNAPSHOT_FORMAT);
            out.writeLong(revision);
            for (Map.Entry<String, KeyHistory> e : keys.entrySet()) {
                Version v = e.getValue().latest();
                if (v != null) {
                    out.writeBoolean(true);
                    out.writeUTF(e.getKey());
                    out.writeLong(v.modRevision());
                    out.writeInt(v.data().length);
                    out.write(v.data());
                    n++;
                }
            }
            out.writeBoolean(false);
            return n;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Loads a snapshot into this empty store: every key at the revision of its last write, and the
     * revision sequence where it was. The history before the snapshot is gone, so reads and watches
     * at older revisions are 410 Expired and their clients list again.
     *
     * @return the keys read
     */
    int readSnapshot(DataInputStream in) throws IOException {
        writeLock.lock();
        try {
            if (in.readInt() != SNAPSHOT_FORMAT) {
                throw new IOException("not a memory storage snapshot of this format");
            }
            long rev = in.readLong();
            int n = 0;
            while (in.readBoolean()) {
                String key = in.readUTF();
                long modRevision = in.readLong();
                byte[] data = new byte[in.readInt()];
                in.readFully(data);
                KeyHistory h = new KeyHistory();
                h.put(modRevision, data);
                keys.put(key, h);
                n++;
            }
            log.restart(rev);
            revision = rev;
            compactedRevision = log.compactedRevision();
            return n;
        } finally {
            writeLock.unlock();
        }
    }

    int keyCount() {
        return keys.size();
    }

    private void dispatch(StoredEvent event) {
        for (QueuedWatch w : watchers) {
            if (!w.offer(event)) {
                watchers.remove(w);
                LOG.warn("Ended watch of {} on {}: {} events behind at revision {}; the client must re-watch",
                        w.resource(), w.range(), w.capacity(), event.revision());
            }
        }
    }

    /** Drops the history no read in the window can see, for the keys of the evicted events. */
    private void compacted(List<StoredEvent> evicted) {
        if (evicted.isEmpty()) {
            return;
        }
        long compacted = log.compactedRevision();
        compactedRevision = compacted;
        for (StoredEvent e : evicted) {
            KeyHistory h = keys.get(e.key());
            if (h != null && h.compact(compacted)) {
                keys.remove(e.key());
            }
        }
    }
}
