package io.kubelix.storage.sql;

import io.kubelix.support.storage.KeyRange;
import io.kubelix.support.storage.StoredEvent;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables and every statement on them, the same SQL on each dialect.
 * <ul>
 *   <li>{@code kubelix_log}: one row per write, keyed by its revision: the key, the object written
 *       (null for a delete) and the revision of the key's previous write (0 for a create), so a
 *       watch from any retained revision is a range read, and a delete's event finds the object it
 *       deleted.</li>
 *   <li>{@code kubelix_current}: the revision of each live key's last write, so a current read
 *       touches only live objects, however long the history.</li>
 *   <li>{@code kubelix_meta}: {@code revision}, the last write's revision (the lock every writer
 *       takes first, so revisions commit in order), and {@code compacted}, the newest revision
 *       whose history compaction dropped.</li>
 * </ul>
 * A read at an older revision R reads, per key, the newest log row at or before R.
 */
final class SqlLog {
    /** Visits one live key of a scan; returns false to stop. */
    @FunctionalInterface
    interface Visitor {
        boolean visit(String key, long modRevision, byte[] data) throws SQLException;
    }

    /** The newest version of a key. */
    record Version(long modRevision, byte[] data) {
    }

    /** A write's outcome: its revision, or -1 when the key's last write was not the expected one (then {@code current}). */
    record WriteResult(long revision, long current) {
    }

    static final String REVISION = "revision";
    static final String COMPACTED = "compacted";
    private static final String CURRENT = "SELECT c.key, c.revision, l.value FROM kubelix_current c"
            + " JOIN kubelix_log l ON l.revision = c.revision WHERE ";
    private static final String AT = "SELECT l.key, l.revision, l.value FROM kubelix_log l WHERE ";
    private static final String AT_NEWEST = " AND l.revision = (SELECT MAX(m.revision) FROM kubelix_log m"
            + " WHERE m.key = l.key AND m.revision <= ?) AND l.value IS NOT NULL";

    private final Connections connections;
    /** Tells other servers of a committed write, or null. */
    private final String notifyStatement;

    SqlLog(Connections connections, String notifyStatement) {
        this.connections = connections;
        this.notifyStatement = notifyStatement;
    }

    /** Creates the tables when missing; an empty store is at revision 1, as etcd's, so nothing is ever at "0". */
    void init(List<String> schema) throws SQLException {
        connections.write(c -> {
            try (Statement s = c.createStatement()) {
                for (String ddl : schema) {
                    s.execute(ddl);
                }
            }
            for (String name : List.of(REVISION, COMPACTED)) {
                if (meta(c, name) < 0) {
                    try (PreparedStatement p = c.prepareStatement("INSERT INTO kubelix_meta (name, value) VALUES (?, ?)")) {
                        p.setString(1, name);
                        p.setLong(2, name.equals(REVISION) ? 1 : 0);
                        p.executeUpdate();
                    }
                }
            }
            return null;
        });
    }

    /** One conditional write: {@code data} (null: a delete) if the key's last write is at {@code expected} (0: absent). */
    record Write(String key, long expected, byte[] data) {
    }

    /**
     * Applies {@code writes} in order as one transaction, so one commit (and one fsync) serves
     * them all: the revision row is locked first (writers of every server on the database queue
     * there, so revisions commit in order), then each write whose condition holds takes the next
     * revision; one whose key has moved on changes nothing and reports the key's current revision.
     * The caller holds the write lock.
     */
    List<WriteResult> write(List<Write> writes) throws SQLException {
        return connections.write(c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "UPDATE kubelix_meta SET value = value WHERE name = '" + REVISION + "'")) {
                p.executeUpdate();
            }
            long rev = meta(c, REVISION);
            long first = rev;
            List<WriteResult> results = new ArrayList<>(writes.size());
            for (Write w : writes) {
                long cur = currentRevision(c, w.key());
                if (cur != w.expected() || cur == 0 && w.data() == null) {
                    results.add(new WriteResult(-1, cur));
                    continue;
                }
                rev++;
                append(c, rev, w.key(), w.data(), cur);
                results.add(new WriteResult(rev, cur));
            }
            if (rev != first) {
                try (PreparedStatement p = c.prepareStatement(
                        "UPDATE kubelix_meta SET value = ? WHERE name = '" + REVISION + "'")) {
                    p.setLong(1, rev);
                    p.executeUpdate();
                }
                if (notifyStatement != null) {
                    try (PreparedStatement p = c.prepareStatement(notifyStatement)) {
                        p.setLong(1, rev);
                        p.executeQuery().close();
                    }
                }
            }
            return results;
        });
    }

    private static long currentRevision(Connection c, String key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT revision FROM kubelix_current WHERE key = ?")) {
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** The log row of a write at {@code rev}, and the key's entry in kubelix_current. */
    private static void append(Connection c, long rev, String key, byte[] data, long cur) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO kubelix_log (revision, key, value, prev_revision) VALUES (?, ?, ?, ?)")) {
            p.setLong(1, rev);
            p.setString(2, key);
            if (data == null) {
                p.setNull(3, Types.VARBINARY);
            } else {
                p.setBytes(3, data);
            }
            p.setLong(4, cur);
            p.executeUpdate();
        }
        String sql = data == null ? "DELETE FROM kubelix_current WHERE key = ?"
                : cur == 0 ? "INSERT INTO kubelix_current (revision, key) VALUES (?, ?)"
                : "UPDATE kubelix_current SET revision = ? WHERE key = ?";
        try (PreparedStatement p = c.prepareStatement(sql)) {
            if (data == null) {
                p.setString(1, key);
            } else {
                p.setLong(1, rev);
                p.setString(2, key);
            }
            p.executeUpdate();
        }
    }

    /** Reads in one snapshot. */
    <T> T read(Connections.Work<T> work) throws SQLException {
        return connections.read(work);
    }

    static long meta(Connection c, String name) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT value FROM kubelix_meta WHERE name = ?")) {
            p.setString(1, name);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    static Version latest(Connection c, String key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(CURRENT + "c.key = ?")) {
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? new Version(rs.getLong(2), rs.getBytes(3)) : null;
            }
        }
    }

    /**
     * Visits the live keys of {@code range} in key order from {@code fromKey} (null: the start; a
     * key ending in NUL: just after that key, as continue tokens say), at {@code revision}, or
     * now when {@code revision} is 0.
     */
    static void scan(Connection c, KeyRange range, String fromKey, long revision, Visitor visitor) throws SQLException {
        Bounds b = Bounds.of(range, fromKey);
        String sql = (revision == 0 ? CURRENT : AT) + b.condition(revision == 0 ? "c.key" : "l.key")
                + (revision == 0 ? "" : AT_NEWEST) + " ORDER BY 1";
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setFetchSize(256);
            int i = b.bind(p, 1);
            if (revision != 0) {
                p.setLong(i, revision);
            }
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    if (!visitor.visit(rs.getString(1), rs.getLong(2), rs.getBytes(3))) {
                        return;
                    }
                }
            }
        }
    }

    /** How many live keys of {@code range} follow {@code afterKey} (exclusive; null: all of them), at {@code revision} or now (0). */
    static long count(Connection c, KeyRange range, String afterKey, long revision) throws SQLException {
        Bounds b = Bounds.of(range, afterKey == null ? null : afterKey + "\u0000");
        String sql = revision == 0 ? "SELECT COUNT(*) FROM kubelix_current c WHERE " + b.condition("c.key")
                : "SELECT COUNT(*) FROM kubelix_log l WHERE " + b.condition("l.key") + AT_NEWEST;
        try (PreparedStatement p = c.prepareStatement(sql)) {
            int i = b.bind(p, 1);
            if (revision != 0) {
                p.setLong(i, revision);
            }
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * The writes after {@code after} up to {@code through}, in order, of the keys in {@code range}
     * (null: every key), each with the object it replaced.
     */
    static List<StoredEvent> events(Connection c, long after, long through, KeyRange range) throws SQLException {
        Bounds b = range == null ? null : Bounds.of(range, null);
        String sql = "SELECT l.revision, l.key, l.value, p.value FROM kubelix_log l"
                + " LEFT JOIN kubelix_log p ON p.revision = l.prev_revision"
                + " WHERE l.revision > ? AND l.revision <= ?" + (b == null ? "" : " AND " + b.condition("l.key"))
                + " ORDER BY l.revision";
        List<StoredEvent> events = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setFetchSize(256);
            p.setLong(1, after);
            p.setLong(2, through);
            if (b != null) {
                b.bind(p, 3);
            }
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    events.add(new StoredEvent(rs.getLong(1), rs.getString(2), rs.getBytes(3), rs.getBytes(4)));
                }
            }
        }
        return events;
    }

    /**
     * Drops the history no read at or after {@code revision} can see: every write superseded by a
     * later write at or before it, and deletes at or before it. First the compacted revision is
     * raised, so no read at an older revision starts; then rows go in batches of revisions, each
     * its own transaction under {@code writeLock}, so writers wait for one batch at most.
     *
     * @return the rows deleted
     */
    long compact(long revision, java.util.concurrent.locks.Lock writeLock) throws SQLException {
        long oldest = connections.read(c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MIN(revision) FROM kubelix_log")) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        });
        writeLock.lock();
        try {
            connections.write(c -> {
                try (PreparedStatement p = c.prepareStatement(
                        "UPDATE kubelix_meta SET value = ? WHERE name = '" + COMPACTED + "' AND value < ?")) {
                    p.setLong(1, revision);
                    p.setLong(2, revision);
                    return p.executeUpdate();
                }
            });
        } finally {
            writeLock.unlock();
        }
        long deleted = 0;
        for (long from = Math.max(0, oldest - 1); from < revision; ) {
            long lo = from;
            long to = Math.min(revision, from + 10_000);
            writeLock.lock();
            try {
                deleted += connections.write(c -> {
                    try (PreparedStatement p = c.prepareStatement("DELETE FROM kubelix_log WHERE revision > ?"
                            + " AND revision <= ? AND (value IS NULL OR EXISTS (SELECT 1 FROM kubelix_log n"
                            + " WHERE n.key = kubelix_log.key AND n.revision > kubelix_log.revision AND n.revision <= ?))")) {
                        p.setLong(1, lo);
                        p.setLong(2, to);
                        p.setLong(3, revision);
                        return (long) p.executeUpdate();
                    }
                });
            } finally {
                writeLock.unlock();
            }
            from = to;
        }
        return deleted;
    }

    /** The key bounds of a scan: {@code lower <= key < upper}, or {@code key > lower} when the lower bound is exclusive. */
    private record Bounds(String lower, boolean exclusive, String upper, String exact) {

        static Bounds of(KeyRange range, String fromKey) {
            if (!range.recursive()) {
                return new Bounds(null, false, null, range.key());
            }
            String prefix = range.prefix();
            String lower = prefix;
            boolean exclusive = false;
            if (fromKey != null && fromKey.compareTo(prefix) > 0) {
                exclusive = fromKey.endsWith("\u0000");
                lower = exclusive ? fromKey.substring(0, fromKey.length() - 1) : fromKey;
            }
            // the first key after every key with the prefix: its final '/' raised to '0'
            String upper = prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
            return new Bounds(lower, exclusive, upper, null);
        }

        String condition(String column) {
            return exact != null ? column + " = ?"
                    : column + (exclusive ? " > ?" : " >= ?") + " AND " + column + " < ?";
        }

        int bind(PreparedStatement p, int i) throws SQLException {
            if (exact != null) {
                p.setString(i, exact);
                return i + 1;
            }
            p.setString(i, lower);
            p.setString(i + 1, upper);
            return i + 2;
        }
    }
}
