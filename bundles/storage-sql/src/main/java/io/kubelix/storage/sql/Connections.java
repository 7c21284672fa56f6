package io.kubelix.storage.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The backend's connections: one that writes (its user holds the store's write lock) and a few
 * that read, each a transaction at a time. A connection that failed is closed and replaced on the
 * next use, so a database that was away is reconnected to without a restart.
 */
final class Connections implements AutoCloseable {
    /** Work on one connection, in one transaction. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final Dialect dialect;
    private final BlockingQueue<Connection> idle;
    private final Semaphore permits;
    private Connection writer;
    private volatile boolean closed;

    Connections(Dialect dialect) {
        this.dialect = dialect;
        this.idle = new ArrayBlockingQueue<>(dialect.readConnections());
        this.permits = new Semaphore(dialect.readConnections());
    }

    /** Runs {@code work} in a read transaction, ended (rolled back) afterwards so it holds no snapshot. */
    <T> T read(Work<T> work) throws SQLException {
        try {
            if (!permits.tryAcquire(30, TimeUnit.SECONDS)) {
                throw new SQLException("no database connection free for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a database connection", e);
        }
        Connection c = null;
        try {
            c = idle.poll();
            if (c == null) {
                c = dialect.open(false);
            }
            T result = work.run(c);
            c.rollback();
            if (closed || !idle.offer(c)) {
                c.close();
            }
            c = null;
            return result;
        } finally {
            if (c != null) {
                discard(c);
            }
            permits.release();
        }
    }

    /** Runs {@code work} in a write transaction, committed when it returns normally; the caller holds the write lock. */
    <T> T write(Work<T> work) throws SQLException {
        if (closed) {
            // Before anything is written: a 503 the caller's storage runs again on the backend's next revision.
            throw io.kubelix.api.errors.StatusException.serviceUnavailable("the storage has been stopped");
        }
        if (writer == null) {
            writer = dialect.open(true);
        }
        Connection c = writer;
        boolean done = false;
        try {
            T result = work.run(c);
            c.commit();
            done = true;
            return result;
        } finally {
            if (!done) {
                try {
                    c.rollback();
                } catch (SQLException e) {
                    discard(c);
                    writer = null;
                }
            }
        }
    }

    /** The write connection, for work that must not run in a transaction of its own (SQLite's vacuum); the caller holds the write lock. */
    <T> T writer(Work<T> work) throws SQLException {
        if (writer == null) {
            writer = dialect.open(true);
        }
        return work.run(writer);
    }

    @Override
    public void close() {
        closed = true;
        Connection c;
        while ((c = idle.poll()) != null) {
            discard(c);
        }
        if (writer != null) {
            discard(writer);
            writer = null;
        }
    }

    private static void discard(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // already broken
        }
    }
}
