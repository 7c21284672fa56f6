package io.kubelix.itest.etcd;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real etcd for the integration tests (the minimal logic of storage-etcd's test EtcdServer):
 * Debian's {@code etcd} binary on two free loopback ports with its own data directory, started and
 * stopped by its PID, killable and restartable on the same data directory and ports. Callers skip
 * when {@link #findBinary()} is null ({@code .ci/run} installs etcd-server). Runs in the test JVM.
 */
public final class EtcdProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path binary;
    private final Path dir;
    private final int clientPort;
    private final int peerPort;
    private Process process;
    private int starts;
    private Thread reaper;

    private EtcdProcess(Path binary, Path dir) {
        this.binary = binary;
        this.dir = dir;
        this.clientPort = freePort();
        this.peerPort = freePort();
    }

    /** The etcd binary on PATH or in /usr/bin, or null when none is installed. */
    public static Path findBinary() {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/bin";
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, "etcd");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Starts etcd with its data directory and log under {@code dir} (created; removed by {@link #close()}). */
    public static EtcdProcess start(Path dir) throws IOException {
        Path binary = findBinary();
        if (binary == null) {
            throw new IllegalStateException("etcd is not installed (apt-get install etcd-server)");
        }
        Files.createDirectories(dir);
        EtcdProcess etcd = new EtcdProcess(binary, dir);
        etcd.startProcess();
        return etcd;
    }

    public String endpoint() {
        return "http://127.0.0.1:" + clientPort;
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL, as a crash; the data directory stays. */
    public void kill() throws InterruptedException {
        if (alive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM (SIGKILL after 10 s); the data directory stays. */
    public void stop() throws InterruptedException {
        if (alive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Starts etcd again on the same data directory and ports. */
    public void restart() throws IOException {
        if (alive()) {
            throw new IllegalStateException("etcd is still running (pid " + process.pid() + ")");
        }
        startProcess();
    }

    /** Stops etcd and removes its directory. */
    @Override
    public void close() throws InterruptedException {
        stop();
        if (reaper != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            reaper = null;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("cannot remove " + dir + ": " + e);
        }
    }

    /** The end of the current etcd log, for failure messages. */
    public String logTail() {
        Path log = dir.resolve("etcd-" + starts + ".log");
        try {
            String s = Files.readString(log);
            return s.length() > 3000 ? s.substring(s.length() - 3000) : s;
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private void startProcess() throws IOException {
        String client = endpoint();
        String peer = "http://127.0.0.1:" + peerPort;
        List<String> cmd = List.of(binary.toString(),
                "--name=kubelix-itest",
                "--data-dir=" + dir.resolve("data"),
                "--listen-client-urls=" + client,
                "--advertise-client-urls=" + client,
                "--listen-peer-urls=" + peer,
                "--initial-advertise-peer-urls=" + peer,
                "--initial-cluster=kubelix-itest=" + peer,
                "--initial-cluster-state=new",
                "--snapshot-count=10000");
        Path log = dir.resolve("etcd-" + (++starts) + ".log");
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (reaper == null) {
            // an aborted test JVM must not leave etcd running
            reaper = new Thread(() -> {
                Process p = process;
                if (p != null) {
                    p.destroyForcibly();
                }
            }, "itest-etcd-reaper");
            Runtime.getRuntime().addShutdownHook(reaper);
        }
        System.out.println("etcd started: pid " + process.pid() + ", " + client + ", log " + log);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("etcd exited with " + process.exitValue() + ": " + logTail());
            }
            if (Files.readString(log).contains("ready to serve client requests") && listening(clientPort)) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting etcd", e);
            }
        }
        process.destroyForcibly();
        throw new IOException("etcd did not start within " + START_TIMEOUT + ": " + logTail());
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
