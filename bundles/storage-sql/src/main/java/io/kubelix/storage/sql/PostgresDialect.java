package io.kubelix.storage.sql;

import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * PostgreSQL through its JDBC driver, for servers that share one database. Keys are compared
 * byte by byte ({@code COLLATE "C"}), as etcd orders them, whatever the database's locale. Reads
 * run in REPEATABLE READ transactions, so a list and the revision it reports are one snapshot.
 * Space freed by compaction is left to autovacuum: deleted rows are reused by later writes.
 */
final class PostgresDialect implements Dialect {
    /** The advisory lock key of compaction ("kubelix" in ASCII), shared by every server on the database. */
    private static final long COMPACTION_LOCK = 0x6b7562656c6978L;

    private final String url;
    private final Properties properties;

    /**
     * @param url {@code jdbc:postgresql://host:port/db?user=...} or {@code postgres://user:password@host:port/db}
     */
    PostgresDialect(String url) {
        this.properties = new Properties();
        this.url = jdbcUrl(url, properties);
    }

    /** The JDBC form of {@code url}; the user and password of a {@code postgres://} URL go to {@code properties}. */
    static String jdbcUrl(String url, Properties properties) {
        if (url.startsWith("jdbc:postgresql:")) {
            return url;
        }
        if (!url.startsWith("postgres://") && !url.startsWith("postgresql://")) {
            throw new IllegalArgumentException("invalid storage-sql-url \"" + redact(url) + "\": must be"
                    + " postgres://user:password@host:port/database or jdbc:postgresql://host:port/database");
        }
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid storage-sql-url \"" + redact(url) + "\": " + e.getMessage());
        }
        if (u.getHost() == null) {
            throw new IllegalArgumentException("invalid storage-sql-url \"" + redact(url) + "\": no host");
        }
        if (u.getUserInfo() != null) {
            String[] userInfo = u.getUserInfo().split(":", 2);
            properties.setProperty("user", userInfo[0]);
            if (userInfo.length > 1) {
                properties.setProperty("password", userInfo[1]);
            }
        }
        String db = u.getPath() == null || u.getPath().length() <= 1 ? "kubelix" : u.getPath().substring(1);
        return "jdbc:postgresql://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "") + "/" + db
                + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }

    /** {@code url} without the password of its user info, for logs and errors. */
    static String redact(String url) {
        return url.replaceAll("(//[^:/@]+):[^@/]*@", "$1:***@").replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public String describe() {
        return redact(url);
    }

    @Override
    public Connection open(boolean forWrites) throws SQLException {
        Connection c = new org.postgresql.Driver().connect(url, properties);
        if (c == null) {
            throw new SQLException("not a PostgreSQL URL: " + describe());
        }
        c.setAutoCommit(false);
        c.setTransactionIsolation(forWrites ? Connection.TRANSACTION_READ_COMMITTED
                : Connection.TRANSACTION_REPEATABLE_READ);
        return c;
    }

    @Override
    public List<String> schema() {
        return List.of(
                "CREATE TABLE IF NOT EXISTS kubelix_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
                "CREATE TABLE IF NOT EXISTS kubelix_log (revision BIGINT PRIMARY KEY, key TEXT COLLATE \"C\" NOT NULL,"
                        + " value BYTEA, prev_revision BIGINT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS kubelix_log_key ON kubelix_log (key, revision)",
                "CREATE TABLE IF NOT EXISTS kubelix_current (key TEXT COLLATE \"C\" PRIMARY KEY,"
                        + " revision BIGINT NOT NULL)");
    }

    @Override
    public int readConnections() {
        return 8;
    }

    @Override
    public String reclaimSpace(Connection c) {
        return "space left to autovacuum";
    }

    @Override
    public boolean shared() {
        return true;
    }

    /** A session-level advisory lock, held by a connection of its own: closing the lead, or losing the connection, releases it. */
    @Override
    public AutoCloseable compactionLead() throws SQLException {
        Connection c = open(true);
        try (java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT pg_try_advisory_lock(" + COMPACTION_LOCK + ")")) {
            c.commit();
            if (rs.next() && rs.getBoolean(1)) {
                return () -> {
                    // unlocked before the connection goes: its server process may end after close returns
                    try (java.sql.Statement u = c.createStatement()) {
                        u.execute("SELECT pg_advisory_unlock(" + COMPACTION_LOCK + ")");
                    } finally {
                        c.close();
                    }
                };
            }
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        c.close();
        return null;
    }

    @Override
    public String notifyStatement() {
        return "SELECT pg_notify('" + PostgresListener.CHANNEL + "', CAST(? AS TEXT))";
    }

    @Override
    public AutoCloseable listen(SqlStore store) {
        PostgresListener listener = new PostgresListener(this, store);
        listener.start();
        return listener;
    }

    @Override
    public void close() {
        Drivers.deregister(org.postgresql.Driver.class);
    }
}
