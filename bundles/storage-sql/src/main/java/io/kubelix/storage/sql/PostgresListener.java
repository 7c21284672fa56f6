package io.kubelix.storage.sql;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Learns of the writes other servers commit to a shared PostgreSQL database: every write sends its
 * revision on the {@code kubelix} channel (NOTIFY, delivered at commit), and this thread, on a
 * connection of its own, LISTENs and hands each revision to {@link SqlStore#catchUp}, which
 * dispatches every write up to it from the log, in order. After (re)connecting it catches up with
 * the current revision, so writes committed while it was not listening are not missed either.
 */
final class PostgresListener implements AutoCloseable, Runnable {
    static final String CHANNEL = "kubelix";
    private static final Logger LOG = LoggerFactory.getLogger(PostgresListener.class);
    /** How long one wait for notifications lasts, and so how long stopping may take. */
    private static final int WAIT_MILLIS = 500;

    private final Dialect dialect;
    private final SqlStore store;
    private final Thread thread;
    private volatile boolean stopped;

    PostgresListener(Dialect dialect, SqlStore store) {
        this.dialect = dialect;
        this.store = store;
        this.thread = new Thread(this, "kubelix-postgres-listener");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        boolean failed = false;
        while (!stopped) {
            try (Connection c = dialect.open(true)) {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
                store.catchUp(store.log().read(r -> SqlLog.meta(r, SqlLog.REVISION)));
                if (failed) {
                    LOG.info("postgres storage: listening to other servers' writes again");
                    failed = false;
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                while (!stopped) {
                    long newest = 0;
                    PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
                    for (PGNotification n : notifications == null ? new PGNotification[0] : notifications) {
                        newest = Math.max(newest, parse(n.getParameter()));
                    }
                    if (newest > 0) {
                        store.catchUp(newest);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (stopped) {
                    return;
                }
                if (!failed) {
                    LOG.warn("postgres storage: not listening to other servers' writes, retrying every second: {}",
                            e.getMessage());
                    failed = true;
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private static long parse(String revision) {
        try {
            return Long.parseLong(revision);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(5_000);
    }
}
