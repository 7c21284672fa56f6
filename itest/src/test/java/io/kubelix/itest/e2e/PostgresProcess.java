package io.kubelix.itest.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL for the e2e tests, the minimal logic of storage-sql's test {@code PostgresServer}
 * (whose test classes are not published): Debian's binaries, a cluster made by initdb in a
 * temporary directory with trust authentication for the user {@code kubelix}, listening on a free
 * loopback port, started and stopped with pg_ctl. PostgreSQL refuses to run as root, so when the
 * tests do, it runs as the {@code postgres} user (else {@code nobody}). Callers skip when
 * {@link #binaries()} is null ({@code .ci/run} installs postgresql).
 */
final class PostgresProcess implements AutoCloseable {
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

    /** Makes a cluster in a new temporary directory and starts it; {@link #close()} stops it and removes the directory. */
    static PostgresProcess start() throws Exception {
        Path bin = binaries();
        if (bin == null) {
            throw new IllegalStateException("PostgreSQL is not installed (apt-get install postgresql)");
        }
        // A temporary directory rather than target/: the postgres user must be able to reach it.
        Path dir = Files.createTempDirectory("kubelix-itest-postgres-");
        String user = "root".equals(System.getProperty("user.name")) ? unprivilegedUser() : null;
        if (user != null) {
            run(List.of("chown", user, dir.toString()), null);
        }
        PostgresProcess server = new PostgresProcess(bin, dir, user, KubelixServer.freePort());
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
    String url() {
        return "postgres://kubelix@127.0.0.1:" + port + "/postgres";
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
    static Path binaries() throws IOException {
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
}
