package io.kubelix.storage.sql;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.StorageErrors;
import io.kubelix.support.storage.KeyRange;
import io.kubelix.support.storage.QueuedWatch;
import io.kubelix.support.storage.StoredEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The database shared by every resource of the backend, and its watchers. Writes take the write
 * lock, commit, and hand their event to the watchers before releasing it, so watchers see this
 * server's writes at once and in revision order, without polling. Writes of other servers on the
 * same database (PostgreSQL) are learned of through {@link #catchUp}: every write up to a revision,
 * read from the log in order, is dispatched once.
 */
final class SqlStore {
    private static final Logger LOG = LoggerFactory.getLogger(SqlStore.class);
    /** The most writes one transaction commits. */
    private static final int MAX_BATCH = 256;

    /** Makes a watcher starting after a revision the store chooses under its lock. */
    @FunctionalInterface
    interface WatchFactory {
        QueuedWatch create(long startRevision);
    }

    private final Dialect dialect;
    private final Connections connections;
    private final SqlLog log;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final CopyOnWriteArrayList<QueuedWatch> watchers = new CopyOnWriteArrayList<>();
    /** Writes waiting for the next commit. */
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    /**
     * The newest revision handed to watchers; every write up to it has been dispatched. Written
     * under the write lock; read without it.
     */
    private volatile long dispatched;

    /** Opens the database, creating its tables when missing. */
    SqlStore(Dialect dialect) throws SQLException {
        this.dialect = dialect;
        this.connections = new Connections(dialect);
        this.log = new SqlLog(connections, dialect.notifyStatement());
        try {
            log.init(dialect.schema());
            this.dispatched = log.read(c -> SqlLog.meta(c, SqlLog.REVISION));
        } catch (SQLException | RuntimeException e) {
            connections.close();
            throw e;
        }
    }

    Dialect dialect() {
        return dialect;
    }

    SqlLog log() {
        return log;
    }

    /** A write waiting for a commit, and then its outcome. */
    private static final class Pending {
        final SqlLog.Write write;
        final byte[] prevData;
        final CountDownLatch done = new CountDownLatch(1);
        SqlLog.WriteResult result;
        SQLException error;

        Pending(SqlLog.Write write, byte[] prevData) {
            this.write = write;
            this.prevData = prevData;
        }
    }

    /**
     * Writes {@code data} (null: deletes) if the key's last write is still at {@code expected} (0:
     * absent), then dispatches the write to the watchers.
     * <p>
     * Group commit: each writer queues its write; whoever gets the write lock commits everything
     * queued, in transactions of up to {@value #MAX_BATCH} writes, until the queue is empty, and
     * tells each writer its outcome. The others wait for theirs without queueing for the lock, so
     * under concurrent writes one commit (one fsync) serves many of them.
     *
     * @param prevData the object written at {@code expected}, which the write replaces
     */
    SqlLog.WriteResult write(String key, long expected, byte[] data, byte[] prevData) throws SQLException {
        Pending mine = new Pending(new SqlLog.Write(key, expected, data), prevData);
        queue.add(mine);
        try {
            while (mine.done.getCount() > 0) {
                if (writeLock.tryLock()) {
                    try {
                        while (!queue.isEmpty()) {
                            commitQueued();
                        }
                    } finally {
                        writeLock.unlock();
                    }
                } else {
                    // the lock holder commits what is queued, this write too unless it came too late
                    mine.done.await(20, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // queued writes are committed by whoever holds the lock; wait for this one's outcome
            writeLock.lock();
            try {
                while (!queue.isEmpty()) {
                    commitQueued();
                }
            } finally {
                writeLock.unlock();
            }
        }
        if (mine.error != null) {
            throw mine.error;
        }
        return mine.result;
    }

    /** Commits what is queued, in one transaction, and dispatches it; the caller holds the write lock. */
    private void commitQueued() {
        List<Pending> batch = new ArrayList<>();
        for (Pending p; batch.size() < MAX_BATCH && (p = queue.poll()) != null; ) {
            batch.add(p);
        }
        List<SqlLog.WriteResult> results;
        try {
            results = log.write(batch.stream().map(p -> p.write).toList());
        } catch (SQLException e) {
            batch.forEach(p -> {
                p.error = e;
                p.done.countDown();
            });
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            SqlLog.WriteResult r = results.get(i);
            p.result = r;
            if (r.revision() <= 0) {
                p.done.countDown();
                continue;
            }
            if (r.revision() == dispatched + 1) {
                dispatched = r.revision();
                dispatch(new StoredEvent(r.revision(), p.write.key(), p.write.data(), p.prevData));
            } else {
                try {
                    catchUpLocked(r.revision());
                } catch (SQLException e) {
                    LOG.warn("{} storage: cannot read the writes up to revision {} for watchers: {}", dialect.name(),
                            r.revision(), e.getMessage());
                }
            }
            p.done.countDown();
        }
    }

    /** Dispatches every write up to {@code revision} not dispatched yet, read from the log in order. */
    void catchUp(long revision) throws SQLException {
        writeLock.lock();
        try {
            catchUpLocked(revision);
        } finally {
            writeLock.unlock();
        }
    }

    private void catchUpLocked(long revision) throws SQLException {
        if (revision <= dispatched) {
            return;
        }
        long from = dispatched;
        // capped at the committed revision: a notification may name a revision of another database's log
        long[] through = {from};
        List<StoredEvent> events = log.read(c -> {
            through[0] = Math.max(from, Math.min(revision, SqlLog.meta(c, SqlLog.REVISION)));
            return SqlLog.events(c, from, through[0], null);
        });
        for (StoredEvent e : events) {
            dispatch(e);
        }
        dispatched = through[0];
    }

    /**
     * Registers a watcher of the writes after {@code fromRevision}, replaying those still in the
     * log, or of the writes after the last dispatched one when {@code fromRevision} is 0.
     *
     * @throws StatusException 410 Expired when {@code fromRevision} is older than the retained history
     */
    QueuedWatch watch(long fromRevision, KeyRange range, WatchFactory factory) throws SQLException {
        writeLock.lock();
        try {
            long now = dispatched;
            if (fromRevision != 0) {
                long compacted = log.read(c -> SqlLog.meta(c, SqlLog.COMPACTED));
                if (fromRevision < compacted) {
                    throw StorageErrors.tooOldResourceVersion(fromRevision, compacted);
                }
            }
            QueuedWatch w = factory.create(fromRevision == 0 ? now : fromRevision);
            if (fromRevision != 0 && fromRevision < now) {
                w.addBacklog(log.read(c -> SqlLog.events(c, fromRevision, now, range)));
            }
            watchers.add(w);
            return w;
        } finally {
            writeLock.unlock();
        }
    }

    void unregister(QueuedWatch w) {
        watchers.remove(w);
    }

    /** The newest revision dispatched to watchers. */
    long dispatchedRevision() {
        return dispatched;
    }

    /**
     * The revision a consistent read observes now. A database of this server alone (SQLite, its
     * file locked) changes only through {@link #write}, which dispatches each commit before it
     * returns, so that is the dispatched revision, read without touching the database; a shared
     * one is asked.
     */
    long currentRevision() throws SQLException {
        return dialect.shared() ? log.read(c -> SqlLog.meta(c, SqlLog.REVISION)) : dispatched;
    }

    /** A BOOKMARK at the newest dispatched revision, behind every event already handed to the watcher. */
    void bookmarkNow(QueuedWatch w) {
        writeLock.lock();
        try {
            w.bookmarkNow(dispatched);
        } finally {
            writeLock.unlock();
        }
    }

    void bookmarkIdleWatchers(long idleNanos) {
        writeLock.lock();
        try {
            for (QueuedWatch w : watchers) {
                w.bookmarkIfIdle(dispatched, idleNanos);
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Compacts the history up to {@code revision} (at most the current revision), then gives the
     * space back.
     *
     * @return the log rows deleted
     */
    long compact(long revision) throws SQLException {
        long target = Math.min(revision, log.read(c -> SqlLog.meta(c, SqlLog.REVISION)));
        long deleted = log.compact(target, writeLock);
        if (deleted > 0) {
            writeLock.lock();
            try {
                String reclaimed = connections.writer(dialect::reclaimSpace);
                LOG.debug("{} storage: {}", dialect.name(), reclaimed);
            } finally {
                writeLock.unlock();
            }
        }
        return deleted;
    }

    int watcherCount() {
        return watchers.size();
    }

    /** Ends every watch and closes the connections. */
    void close() {
        writeLock.lock();
        try {
            watchers.forEach(QueuedWatch::end);
            watchers.clear();
            connections.close();
        } finally {
            writeLock.unlock();
        }
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
}
