package io.kubelix.testing.postgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL of the tests' own, for storage-sql's tests and the end-to-end tests: Debian's
 * binaries ({@code /usr/lib/postgresql/<version>/bin}), a cluster made by initdb in a temporary
 * directory with trust authentication for the user {@code kubelix}, listening on a free loopback
 * port, started and stopped with pg_ctl. PostgreSQL refuses to run as root, so when the tests do,
 * it runs as the {@code postgres} user (else {@code nobody}). Callers skip when {@link #binaries()}
 * is null.
 */
public final class PostgresProcess implements AutoCloseable {
    /** Why a test is skipped without PostgreSQL. */
    public static final String NOT_INSTALLED = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb):"
            + " install Debian's postgresql package to run the tests that need it";

    private final Path bin;
    private final Path dir;
    private final String user;
    private final int port;

    private PostgresProcess(Path bin, Path dir, String user, int port) {
        this.bin = bin;
        this.dir = dir;
        this.user = user;
        this.port = port;
    }

    /**
     * Makes a cluster in a new temporary directory and starts it; {@link #close()} stops it and
     * removes the directory.
     *
     * @throws IllegalStateException when PostgreSQL is not installed
     */
    public static PostgresProcess start() throws Exception {
        Path bin = binaries();
        if (bin == null) {
            throw new IllegalStateException(NOT_INSTALLED);
        }
        // A temporary directory rather than target/: the postgres user must be able to reach it.
        Path dir = Files.createTempDirectory("kubelix-postgres-");
        String user = "root".equals(System.getProperty("user.name")) ? unprivilegedUser() : null;
        if (user != null) {
            run(List.of("chown", user, dir.toString()), null);
        }
        PostgresProcess server = new PostgresProcess(bin, dir, user, freePort());
        try {
            server.pg("initdb", "-D", server.data(), "-U", "kubelix", "--auth=trust", "-E", "UTF8", "--no-locale",
                    "--no-sync");
            server.pg("pg_ctl", "-D", server.data(), "-l", dir.resolve("postgres.log").toString(), "-w", "-t", "60",
                    "-o", "-p " + server.port + " -h 127.0.0.1 -k " + dir + " -c fsync=off", "start");
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The {@code postgres://} URL of its {@code postgres} database, as {@code --storage-sql-url} takes it. */
    public String url() {
        return "postgres://kubelix@127.0.0.1:" + port + "/postgres";
    }

    /** The JDBC URL of its {@code postgres} database. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=kubelix";
    }

    /**
     * The JDBC URL of a new, empty schema of its own, made through {@code driver} (the caller's
     * PostgreSQL driver, which need not be registered with DriverManager).
     */
    public String newSchema(Driver driver, String name) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "kubelix");
        try (Connection c = driver.connect("jdbc:postgresql://127.0.0.1:" + port + "/postgres", p);
             Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("CREATE SCHEMA " + name);
        }
        return jdbcUrl() + "&currentSchema=" + name;
    }

    @Override
    public void close() throws Exception {
        try {
            if (Files.exists(dir.resolve("data").resolve("postmaster.pid"))) {
                pg("pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop");
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private void pg(String tool, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        if (user != null) {
            command.addAll(List.of("runuser", "-u", user, "--"));
        }
        command.add(bin.resolve(tool).toString());
        command.addAll(List.of(args));
        run(command, dir);
    }

    private static void run(List<String> command, Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
        }
    }

    /** The newest installed PostgreSQL's bin directory ({@code /usr/lib/postgresql/<version>/bin}), or null. */
    public static Path binaries() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparingInt(b -> major(b.getParent().getFileName().toString())))
                    .orElse(null);
        }
    }

    private static int major(String version) {
        try {
            return Integer.parseInt(version.replaceAll("\\..*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String unprivilegedUser() throws Exception {
        Process p = new ProcessBuilder("id", "-u", "postgres").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0 ? "postgres" : "nobody";
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
