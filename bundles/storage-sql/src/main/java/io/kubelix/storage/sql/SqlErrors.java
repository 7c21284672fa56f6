package io.kubelix.storage.sql;

import io.kubelix.api.storage.StorageException;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * Turns what JDBC throws into the storage contract's errors: a database that cannot be reached
 * (SQLState class 08, PostgreSQL's connection errors) is {@code UNREACHABLE}, which core-runtime
 * answers with 503; anything else (a full disk, a locked or corrupt file) is {@code INTERNAL}, 500,
 * with the database's own message.
 */
final class SqlErrors {

    private SqlErrors() {
    }

    static StorageException map(SQLException e, String dialect, String key) {
        String state = e.getSQLState();
        if (e instanceof SQLTransientConnectionException || state != null && state.startsWith("08")) {
            return new StorageException(StorageException.Code.UNREACHABLE, key,
                    dialect + " database unreachable: " + e.getMessage(), e);
        }
        return new StorageException(StorageException.Code.INTERNAL, key,
                dialect + " storage error on " + key + ": " + e.getMessage(), e);
    }
}
