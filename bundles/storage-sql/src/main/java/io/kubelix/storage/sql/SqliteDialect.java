package io.kubelix.storage.sql;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * SQLite through xerial's sqlite-jdbc (its native library for this platform ships inside it), in
 * WAL mode: readers never block the one writer, and a commit is one append to the write-ahead
 * log. {@code synchronous=FULL} (the default here) fsyncs the log at every commit, so an
 * acknowledged write survives a crash of the process and a power loss; {@code NORMAL} survives
 * the crash of the process only. The file is one server's: a second server on it would not see the
 * first one's writes in its watches, so the first to open it holds a lock on {@code <file>.lock}
 * and a second one is refused.
 */
final class SqliteDialect implements Dialect {
    private final Path file;
    private final String synchronous;
    private final SQLiteDataSource dataSource;
    private FileChannel lockFile;
    private FileLock lock;
    /** Set by {@link #close}: the lock is released for good; guarded by this. */
    private boolean closed;

    SqliteDialect(Path file, String synchronous) {
        this.file = file;
        this.synchronous = synchronous.toUpperCase(Locale.ROOT);
        SQLiteConfig config = new SQLiteConfig();
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(this.synchronous));
        config.setBusyTimeout(10_000);
        this.dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file);
    }

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public String describe() {
        return file + " (WAL, synchronous=" + synchronous + ")";
    }

    Path file() {
        return file;
    }

    @Override
    public Connection open(boolean forWrites) throws SQLException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new SQLException("the directory of the database " + file + " does not exist");
        }
        if (dir != null && !Files.isWritable(dir)) {
            throw new SQLException("the directory of the database " + file + " is not writable");
        }
        claim(forWrites);
        Connection c = dataSource.getConnection();
        try (Statement s = c.createStatement()) {
            // auto_vacuum takes effect only on a new database, before WAL mode and tables are written to it
            s.execute("PRAGMA auto_vacuum = INCREMENTAL");
            s.execute("PRAGMA journal_mode = WAL");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        c.setAutoCommit(false);
        return c;
    }

    @Override
    public List<String> schema() {
        return List.of(
                "CREATE TABLE IF NOT EXISTS kubelix_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
                // revision is the rowid: appends go to the end of the table's b-tree
                "CREATE TABLE IF NOT EXISTS kubelix_log (revision INTEGER PRIMARY KEY, key TEXT NOT NULL,"
                        + " value BLOB, prev_revision INTEGER NOT NULL)",
                "CREATE INDEX IF NOT EXISTS kubelix_log_key ON kubelix_log (key, revision)",
                "CREATE TABLE IF NOT EXISTS kubelix_current (key TEXT PRIMARY KEY, revision INTEGER NOT NULL)"
                        + " WITHOUT ROWID");
    }

    @Override
    public int readConnections() {
        return 8;
    }

    /** Moves the free pages a compaction left to the end of the file and truncates it, then the WAL. */
    @Override
    public String reclaimSpace(Connection c) throws SQLException {
        long free;
        try (Statement s = c.createStatement()) {
            free = single(s, "PRAGMA freelist_count");
        }
        c.commit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            // executeUpdate steps the pragma to its end; execute would free one page only
            s.executeUpdate("PRAGMA incremental_vacuum");
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } finally {
            c.setAutoCommit(false);
        }
        return free + " free pages given back";
    }

    private static long single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Override
    public boolean shared() {
        return false;
    }

    /** The file is this server's alone (its lock), so it always leads. */
    @Override
    public AutoCloseable compactionLead() {
        return () -> { };
    }

    @Override
    public String notifyStatement() {
        return null;
    }

    @Override
    public AutoCloseable listen(SqlStore store) {
        return () -> { };
    }

    /**
     * Takes the lock that makes the file this server's, once. Once closed, the lock is the next
     * version's (after an update of the plugin): a read still in flight on this one may open a
     * connection without it, and nothing may write.
     */
    private synchronized void claim(boolean forWrites) throws SQLException {
        if (closed) {
            if (forWrites) {
                throw new SQLTransientConnectionException("the storage has been stopped");
            }
            return;
        }
        if (lock != null) {
            return;
        }
        Path path = file.resolveSibling(file.getFileName() + ".lock");
        try {
            FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                channel.close();
                throw new SQLException("the database " + file + " is in use by another Kubelix server (it holds "
                        + path + "); give this one another --data-dir or --storage-sql-url");
            }
            lockFile = channel;
            lock = l;
        } catch (IOException e) {
            throw new SQLException("cannot lock " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        Drivers.deregister(org.sqlite.JDBC.class);
        try {
            if (lock != null) {
                lock.release();
                lockFile.close();
            }
        } catch (IOException ignored) {
            // released with the channel
        }
        lock = null;
    }
}
