package io.kubelix.storage.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The settings a user gives the SQL backends, and the messages a wrong one gets. */
class SqlSettingsTest {

    @Test
    void sqliteDatabaseIsInTheDataDirectoryUnlessAFileIsNamed(@TempDir Path dir) {
        assertEquals(dir.resolve("kubelix.db"), settings(Map.of("data-dir", dir.toString())).sqliteFile());
        assertEquals(dir.resolve("other.db"), settings(Map.of("storage-sql-url", "sqlite:" + dir.resolve("other.db")))
                .sqliteFile());
    }

    @Test
    void aMissingOrUnwritableDirectoryIsNamed(@TempDir Path dir) throws Exception {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("data-dir", dir.resolve("nowhere").toString())).sqliteFile());
        assertEquals("the database directory " + dir.resolve("nowhere") + " does not exist", missing.getMessage());
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        assertTrue(readOnly.toFile().setWritable(false));
        if (!Files.isWritable(readOnly)) { // root writes anywhere
            IllegalArgumentException unwritable = assertThrows(IllegalArgumentException.class,
                    () -> settings(Map.of("data-dir", readOnly.toString())).sqliteFile());
            assertEquals("the database directory " + readOnly + " is not writable", unwritable.getMessage());
        }
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        assertEquals("invalid storage-sql-url \"http://db:5432/x\" for the sqlite storage: must be the path of a"
                        + " database file",
                assertThrows(IllegalArgumentException.class,
                        () -> settings(Map.of("storage-sql-url", "http://db:5432/x")).sqliteFile()).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings(Map.of("sqlite-synchronous", "OFF")))
                .getMessage().startsWith("invalid sqlite-synchronous \"OFF\""));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("etcd-compaction-interval", "5 minutes"))).getMessage()
                .startsWith("invalid etcd-compaction-interval \"5 minutes\""));
        assertEquals("the postgres storage needs --storage-sql-url, such as postgres://user:password@host:5432/kubelix",
                assertThrows(IllegalArgumentException.class, () -> settings(Map.of()).postgresUrl()).getMessage());
    }

    @Test
    void postgresUrlsBecomeJdbcUrlsWithTheCredentialsAsProperties() {
        Properties p = new Properties();
        assertEquals("jdbc:postgresql://db.example:6432/cluster?sslmode=require",
                PostgresDialect.jdbcUrl("postgres://kube:s3cret@db.example:6432/cluster?sslmode=require", p));
        assertEquals("kube", p.getProperty("user"));
        assertEquals("s3cret", p.getProperty("password"));
        assertEquals("jdbc:postgresql://db/x?user=a", PostgresDialect.jdbcUrl("jdbc:postgresql://db/x?user=a", p));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> PostgresDialect.jdbcUrl("mysql://kube:s3cret@db/x", new Properties()));
        assertFalse(bad.getMessage().contains("s3cret"), "the password is not in the message: " + bad.getMessage());
        assertEquals("postgres://kube:***@db/x", PostgresDialect.redact("postgres://kube:s3cret@db/x"));
        assertEquals("jdbc:postgresql://db/x?password=***", PostgresDialect.redact("jdbc:postgresql://db/x?password=p"));
    }

    private static SqlSettings settings(Map<String, String> config) {
        return SqlSettings.read(config, name -> null);
    }
}
