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
import java.util.Comparator;
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

    /** The layout of {@link #writeSnapshot}: every key's versions in the window. */
    private static final int SNAPSHOT_FORMAT = 0x4b4d5302;
    /** The layout earlier versions of the bundle hand over: live keys only. */
    private static final int LIVE_KEYS_FORMAT = 0x4b4d5301;

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
     * Writes one consistent state: the current and compacted revisions and every key's versions
     * in the retained window (the event log is those after the compacted revision), so the next
     * version of the bundle answers reads and watches from any revision this one still held.
     *
     * @return the live keys written
     */
    int writeSnapshot(DataOutputStream out) throws IOException {
        writeLock.lock();
        try {
            int live = 0;
            out.writeInt(SNAPSHOT_FORMAT);
            out.writeLong(revision);
            out.writeLong(compactedRevision);
            out.writeInt(keys.size());
            for (Map.Entry<String, KeyHistory> e : keys.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().size());
                e.getValue().forEach((rev, data) -> {
                    out.writeLong(rev);
                    out.writeInt(data == null ? -1 : data.length);
                    if (data != null) {
                        out.write(data);
                    }
                });
                live += e.getValue().latest() == null ? 0 : 1;
            }
            return live;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Loads a snapshot into this empty store: every key's versions, the event log of the window
     * rebuilt from them, and the revision sequence where it was. The window is the one handed over
     * (cut to this store's history size), so a watch or read is 410 Expired only at a revision the
     * previous version had compacted too. A snapshot of the earlier format holds live keys only:
     * the history before it is gone.
     *
     * @return the live keys read
     */
    int readSnapshot(DataInputStream in) throws IOException {
        writeLock.lock();
        try {
            int format = in.readInt();
            if (format == LIVE_KEYS_FORMAT) {
                return readLiveKeys(in);
            }
            if (format != SNAPSHOT_FORMAT) {
                throw new IOException("not a memory storage snapshot of a known format");
            }
            long rev = in.readLong();
            long compacted = in.readLong();
            int live = 0;
            for (int k = in.readInt(); k > 0; k--) {
                String key = in.readUTF();
                KeyHistory h = new KeyHistory();
                for (int v = in.readInt(); v > 0; v--) {
                    long version = in.readLong();
                    int length = in.readInt();
                    byte[] data = length < 0 ? null : new byte[length];
                    if (data != null) {
                        in.readFully(data);
                    }
                    h.put(version, data);
                }
                keys.put(key, h);
                live += h.latest() == null ? 0 : 1;
            }
            rebuildWindow(compacted, rev);
            revision = rev;
            return live;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Fills the event log with the writes after {@code compacted}, one per revision up to {@code rev},
     * as the keys' versions hold them. Should they not, the window starts at {@code rev} (the objects
     * are kept, their history is not).
     */
    private void rebuildWindow(long compacted, long rev) {
        List<StoredEvent> window = new ArrayList<>();
        keys.forEach((key, h) -> h.eventsAfter(compacted, key, window::add));
        window.sort(Comparator.comparingLong(StoredEvent::revision));
        log.restart(compacted);
        compactedRevision = compacted;
        try {
            for (StoredEvent e : window) {
                StoredEvent evicted = log.append(e);
                if (evicted != null) {
                    compacted(List.of(evicted));
                }
            }
            if (log.newestRevision() == rev) {
                return;
            }
        } catch (IllegalStateException e) {
            LOG.debug("History handed over is not one write per revision: {}", e.getMessage());
        }
        LOG.warn("Memory storage: the history handed over does not reach revision {}; revisions before it answer 410",
                rev);
        log.restart(rev);
        compactedRevision = rev;
        keys.entrySet().removeIf(e -> e.getValue().compact(rev));
    }

    /** The earlier snapshot: each live key at the revision of its last write, no history. */
    private int readLiveKeys(DataInputStream in) throws IOException {
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
