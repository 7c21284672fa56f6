package io.kubelix.storage.sql;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL of the tests' own: Debian's binaries ({@code /usr/lib/postgresql/<version>/bin}),
 * a cluster made by initdb in a temporary directory, listening on a free loopback port with trust
 * authentication, started and stopped with pg_ctl. PostgreSQL refuses to run as root, so when the
 * tests do, it runs as the {@code postgres} user (else {@code nobody}). Tests are skipped, saying
 * why, only when the binaries are not installed.
 */
final class PostgresServer implements AutoCloseable {
    private final Path bin;
    private final Path dir;
    private final String user;
    private final int port;

    private PostgresServer(Path bin, Path dir, String user, int port) {
        this.bin = bin;
        this.dir = dir;
        this.user = user;
        this.port = port;
    }

    static PostgresServer start() throws Exception {
        Path bin = binaries();
        Assumptions.assumeTrue(bin != null, "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb):"
                + " install Debian's postgresql package to run the postgres storage tests");
        Path dir = Files.createTempDirectory("kubelix-postgres-");
        String user = "root".equals(System.getProperty("user.name")) ? unprivilegedUser() : null;
        if (user != null) {
            run(List.of("chown", user, dir.toString()), null);
        }
        PostgresServer server = new PostgresServer(bin, dir, user, freePort());
        try {
            server.pg("initdb", "-D", dir.resolve("data").toString(), "-U", "kubelix", "--auth=trust", "-E", "UTF8",
                    "--no-locale", "--no-sync");
            server.pg("pg_ctl", "-D", dir.resolve("data").toString(), "-l", dir.resolve("postgres.log").toString(),
                    "-w", "-t", "60", "-o", "-p " + server.port + " -h 127.0.0.1 -k " + dir + " -c fsync=off", "start");
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** A JDBC URL of a new, empty schema of its own. */
    String newSchema(String name) throws SQLException {
        try (Connection c = connect("kubelix"); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + name);
        }
        return url() + "&currentSchema=" + name;
    }

    String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=kubelix";
    }

    private Connection connect(String user) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        Connection c = new org.postgresql.Driver().connect("jdbc:postgresql://127.0.0.1:" + port + "/postgres", p);
        c.setAutoCommit(true);
        return c;
    }

    @Override
    public void close() throws Exception {
        try {
            if (Files.exists(dir.resolve("data").resolve("postmaster.pid"))) {
                pg("pg_ctl", "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop");
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
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

    /** The newest installed PostgreSQL's bin directory, or null. */
    private static Path binaries() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(b -> b.getParent().getFileName().toString(),
                            Comparator.comparingInt(PostgresServer::major)))
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
