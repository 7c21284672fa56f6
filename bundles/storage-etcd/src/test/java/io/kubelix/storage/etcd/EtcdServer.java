package io.kubelix.storage.etcd;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real etcd for tests: Debian's {@code etcd} binary on free loopback ports with a temporary data
 * directory, started and stopped by its PID. Tests skip (not fail) only when no etcd binary is
 * installed; {@code .ci/run} installs one.
 */
final class EtcdServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path binary;
    private final Path dir;
    private final Path dataDir;
    private final int clientPort;
    private final int peerPort;
    private final List<String> tlsArgs;
    private final boolean tls;
    private Process process;
    private int starts;

    private EtcdServer(Path binary, Path dir, List<String> tlsArgs, boolean tls) throws IOException {
        this.binary = binary;
        this.dir = dir;
        this.dataDir = dir.resolve("data");
        this.clientPort = freePort();
        this.peerPort = freePort();
        this.tlsArgs = tlsArgs;
        this.tls = tls;
    }

    /** The etcd binary, or a skipped test when there is none. */
    static Path requireBinary() {
        Path found = findBinary();
        Assumptions.assumeTrue(found != null,
                "etcd is not installed (apt-get install etcd-server; .ci/run does): skipping the etcd tests");
        return found;
    }

    static Path findBinary() {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/bin";
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, "etcd");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Starts a plain-HTTP etcd. */
    static EtcdServer start() throws IOException {
        EtcdServer s = new EtcdServer(requireBinary(), Files.createTempDirectory("kubelix-etcd-test"), List.of(), false);
        s.startProcess();
        return s;
    }

    /** Starts an etcd serving TLS with client certificate auth against {@code ca}. */
    static EtcdServer startTls(Path dir, Path serverCert, Path serverKey, Path ca) throws IOException {
        List<String> args = List.of("--cert-file=" + serverCert, "--key-file=" + serverKey,
                "--client-cert-auth", "--trusted-ca-file=" + ca);
        EtcdServer s = new EtcdServer(requireBinary(), dir, args, true);
        s.startProcess();
        return s;
    }

    String endpoint() {
        return (tls ? "https" : "http") + "://127.0.0.1:" + clientPort;
    }

    long pid() {
        return process.pid();
    }

    /** Stops etcd (SIGTERM, SIGKILL after 10s); its data directory stays. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** Kills etcd at once (SIGKILL), as a crash would. */
    void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor();
        }
    }

    /** Starts etcd again on the same data directory and ports. */
    void restart() throws IOException {
        startProcess();
    }

    @Override
    public void close() throws Exception {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private void startProcess() throws IOException {
        String client = endpoint().replace("https", tls ? "https" : "http");
        String peer = "http://127.0.0.1:" + peerPort;
        List<String> cmd = new ArrayList<>(List.of(binary.toString(),
                "--name=kubelix-test",
                "--data-dir=" + dataDir,
                "--listen-client-urls=" + client,
                "--advertise-client-urls=" + client,
                "--listen-peer-urls=" + peer,
                "--initial-advertise-peer-urls=" + peer,
                "--initial-cluster=kubelix-test=" + peer,
                "--initial-cluster-state=new",
                "--snapshot-count=10000"));
        cmd.addAll(tlsArgs);
        Path log = dir.resolve("etcd-" + (++starts) + ".log");
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Process started = process;
        if (starts == 1) {
            // an aborted test JVM must not leave etcd running
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (process != null) {
                    process.destroyForcibly();
                }
            }, "etcd-test-server-reaper"));
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("etcd exited with " + process.exitValue() + ": " + tail(log));
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
        started.destroyForcibly();
        throw new IOException("etcd did not start within " + START_TIMEOUT + ": " + tail(log));
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String tail(Path log) throws IOException {
        String s = Files.readString(log);
        return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
