package io.kubelix.storage.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs between the databases the SQL backend runs on; every query of {@link SqlLog} is
 * the same SQL on all of them.
 */
interface Dialect {

    /** The backend's name, the value of {@code --storage-backend}. */
    String name();

    /** Where the data is, for logs and errors (a file, or a URL without its password). */
    String describe();

    /**
     * A new connection with the session settings the backend relies on, not in auto-commit mode.
     *
     * @param forWrites for the one connection that writes, whose transactions must see the latest
     *                  committed state once they hold the revision row's lock; reads see one snapshot
     */
    Connection open(boolean forWrites) throws SQLException;

    /** The statements that create the tables when they do not exist yet. */
    List<String> schema();

    /** How many connections serve reads at once. */
    int readConnections();

    /** Gives space back to the operating system after a compaction deleted rows; returns what it did, for the log. */
    String reclaimSpace(Connection c) throws SQLException;

    /** Whether other servers may write to the same database, so their writes must be learned of. */
    boolean shared();

    /**
     * A statement, run in each write transaction with the write's revision as its one parameter,
     * that tells the other servers on the database of the write once it commits; null when the
     * database is not shared.
     */
    String notifyStatement();

    /**
     * Starts learning of the other servers' writes, handing each revision they commit to
     * {@link SqlStore#catchUp}; closing the result stops it. A database that is not shared returns
     * a handle that does nothing.
     */
    AutoCloseable listen(SqlStore store);

    /**
     * Makes this server the only one compacting the database until the result is closed, or
     * returns null when another server is compacting it now.
     */
    AutoCloseable compactionLead() throws SQLException;

    /** Releases what the dialect holds (its JDBC driver's registration). */
    void close();
}
