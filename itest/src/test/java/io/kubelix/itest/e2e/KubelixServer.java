package io.kubelix.itest.e2e;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private copy of the built distribution ({@code distribution/target/kubelix}) started with
 * {@code bin/kubelix} on a free port and its own data directory. Tests may move plugin jars of the
 * copy; the build output is never touched. Stopped by its own PID only.
 */
final class KubelixServer implements AutoCloseable {
    private final Path home;
    private final Path dataDir;
    private final Path log;
    private final int port;
    private final List<String> flags;
    private Process process;
    /** Stops the server should the test JVM end without {@link #close()} (a killed or timed-out fork). */
    private Thread shutdownHook;

    private KubelixServer(Path home, Path dataDir, Path log, int port, List<String> flags) {
        this.home = home;
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
        this.flags = flags;
    }

    /**
     * A fresh work directory for one e2e class, {@code <kubelix.itest.work>/e2e/<name>-<millis>},
     * with a {@code home} directory for kubectl in it.
     */
    static Path workDirectory(String name) throws IOException {
        Path work = Path.of(System.getProperty("kubelix.itest.work", "target/itest-work"), "e2e",
                name + "-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work.resolve("home"));
        return work;
    }

    /** The distribution the e2e suite runs against ({@code kubelix.itest.distribution}), started under {@code work} with {@code flags}. */
    static KubelixServer startDistribution(Path work, Duration readyTimeout, String... flags)
            throws IOException, InterruptedException {
        return start(Path.of(property("kubelix.itest.distribution")), work, readyTimeout, flags);
    }

    /** The real kubectl ({@code kubelix.itest.kubectl}, else the one on PATH) with this server's admin kubeconfig, its home in {@code work}. */
    Kubectl kubectl(Path work) {
        return new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"), kubeconfig(), work.resolve("home"));
    }

    /** Copies the distribution under {@code work} and starts it; returns once {@code /readyz} answers 200. */
    static KubelixServer start(Path distribution, Path work, Duration readyTimeout) throws IOException, InterruptedException {
        return start(distribution, work, readyTimeout, new String[0]);
    }

    /** As {@link #start(Path, Path, Duration)}, with more {@code bin/kubelix} flags (such as {@code --default-watch-cache-size 50}). */
    static KubelixServer start(Path distribution, Path work, Duration readyTimeout, String... flags)
            throws IOException, InterruptedException {
        if (!Files.isExecutable(distribution.resolve("bin").resolve("kubelix"))) {
            throw new IllegalStateException(distribution + "/bin/kubelix is missing: build the distribution module first");
        }
        Path home = work.resolve("kubelix");
        copyTree(distribution, home);
        KubelixServer server = new KubelixServer(home, work.resolve("data"), work.resolve("kubelix.log"), freePort(),
                List.of(flags));
        server.launch();
        try {
            server.awaitReady(readyTimeout);
        } catch (AssertionError | RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Starts the distribution where it is, without copying it: the way a user runs
     * {@code distribution/target/kubelix/bin/kubelix}. Only the data directory ({@code work/data})
     * and the log are written; the tree is read, and must not be changed by the test.
     */
    static KubelixServer startInPlace(Path distribution, Path work, Duration readyTimeout)
            throws IOException, InterruptedException {
        if (!Files.isExecutable(distribution.resolve("bin").resolve("kubelix"))) {
            throw new IllegalStateException(distribution + "/bin/kubelix is missing: build the distribution module first");
        }
        KubelixServer server = new KubelixServer(distribution, work.resolve("data"), work.resolve("kubelix.log"), freePort(),
                List.of());
        server.launch();
        try {
            server.awaitReady(readyTimeout);
        } catch (AssertionError | RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void launch() throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of(home.resolve("bin").resolve("kubelix").toString(),
                "--secure-port", Integer.toString(port), "--data-dir", dataDir.toString()));
        command.addAll(flags);
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // Each test server runs its own copy of the distribution, so each would record a class data
        // sharing archive (tens of MB) while it exits, which its stop would then be measured with.
        pb.environment().put("KUBELIX_CDS", "false");
        process = pb.start();
        Process started = process;
        shutdownHook = new Thread(started::destroy, "kubelix-server-stopper");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        System.out.println("kubelix started: pid " + process.pid() + ", port " + port + ", log " + log);
    }

    private void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("kubelix exited with " + process.exitValue() + " before it was ready\n" + log());
            }
            if (Files.isRegularFile(caCertificate())) {
                try {
                    HttpResponse<String> r = get("/readyz", null);
                    if (r.statusCode() == 200) {
                        return;
                    }
                    last = r.statusCode() + " " + r.body();
                } catch (IOException | RuntimeException e) {
                    last = e.toString();
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("kubelix not ready after " + timeout.toSeconds() + "s (last /readyz: " + last + ")\n" + log());
    }

    /** A GET with HTTP/2 (ALPN) trusting the server's CA; {@code token} null sends no credentials. */
    HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
        return getWithHeaders(path, token);
    }

    /** A GET with the token (or none) and extra headers given as name, value, name, value... (an Accept given replaces JSON's) */
    HttpResponse<String> getWithHeaders(String path, String token, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(trusting(caCertificate()))
                .build();
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    Path kubeconfig() {
        return dataDir.resolve("admin.kubeconfig");
    }

    /** The HTTPS port the server listens on (127.0.0.1). */
    int port() {
        return port;
    }

    Path plugins() {
        return home.resolve("plugins");
    }

    /** This server's copy of the distribution. */
    Path home() {
        return home;
    }

    /** This server's data directory. */
    /** The file the server's standard output and error go to. */
    Path logFile() {
        return log;
    }

    Path dataDir() {
        return dataDir;
    }

    /** Stops the server, as {@link #close()}, to start it again with {@link #startAgain}. */
    void stop() throws InterruptedException {
        close();
    }

    /**
     * Moves {@code plugins/<name>-<version>.jar} into {@code dir}, out of FileInstall's sight, so
     * the plugin is uninstalled; returns where the jar went, for {@link #putPluginBack}.
     */
    Path takePluginOut(String name, Path dir) throws IOException {
        Path jar;
        try (java.util.stream.Stream<Path> s = Files.list(plugins())) {
            jar = s.filter(p -> p.getFileName().toString().matches(java.util.regex.Pattern.quote(name) + "-[0-9].*\\.jar"))
                    .findFirst().orElseThrow(() -> new AssertionError("no " + name + " jar in " + plugins()));
        }
        Path aside = Files.createDirectories(dir).resolve(jar.getFileName());
        Files.move(jar, aside, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return aside;
    }

    /** Moves a jar taken out by {@link #takePluginOut} back into plugins/, where FileInstall installs it again. */
    void putPluginBack(Path aside) throws IOException {
        Files.move(aside, plugins().resolve(aside.getFileName()), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The server's output so far, for failure messages. */
    String log() {
        try {
            return "---- " + log + " ----\n" + Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** Stops the server (as {@link #close()}) and starts it again on the same port, home and data directory. */
    void restart(Duration readyTimeout) throws IOException, InterruptedException {
        close();
        start(readyTimeout);
    }

    /** SIGTERM to the server's PID, as {@code kill}; returns its exit code, or fails if it does not exit in time. */
    int terminate(Duration timeout) throws InterruptedException {
        if (shutdownHook != null) {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
            shutdownHook = null;
        }
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kubelix did not exit within " + timeout.toSeconds() + "s of SIGTERM\n" + log());
        }
        return process.exitValue();
    }

    /** SIGKILL to the server's PID, as {@code kill -9}: no shutdown hook runs, nothing is flushed. */
    void kill() throws InterruptedException {
        if (shutdownHook != null) {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
            shutdownHook = null;
        }
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts a stopped or killed server again on the same port, home and data directory. */
    void startAgain(Duration readyTimeout) throws IOException, InterruptedException {
        start(readyTimeout);
    }

    private void start(Duration readyTimeout) throws IOException, InterruptedException {
        Files.move(log, log.resolveSibling(log.getFileName() + "." + process.pid()), StandardCopyOption.REPLACE_EXISTING);
        launch();
        awaitReady(readyTimeout);
    }

    /** SIGTERM to the server's PID (Felix's shutdown hook stops the bundles), SIGKILL only if it hangs. */
    @Override
    public void close() throws InterruptedException {
        if (shutdownHook != null) {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
            shutdownHook = null;
        }
        terminate(process, "kubelix", 30);
    }

    /** SIGTERM to {@code process}, SIGKILL if it has not ended after {@code graceSeconds}; nothing when it has ended. */
    static void terminate(Process process, String name, int graceSeconds) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
            System.err.println(name + " pid " + process.pid() + " did not stop within " + graceSeconds + "s: killing it");
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    Path caCertificate() {
        return dataDir.resolve("pki").resolve("ca.crt");
    }

    /**
     * Waits until kubectl is served in namespace default: {@code /readyz} waits for the system
     * namespaces (a post-start hook) but not for every plugin's resources, so this checks namespace
     * default and, when given, waits for {@code kubectl get <resources>} (comma-separated) to answer.
     */
    void awaitServed(Kubectl kubectl, Duration timeout, String resources) throws Exception {
        await("namespace default", timeout, () -> kubectl.run("get", "namespace", "default"), r -> r.exitCode() == 0);
        if (resources != null) {
            await("kubectl get " + resources + " answers", timeout, () -> kubectl.run("get", resources),
                    r -> r.exitCode() == 0);
        }
    }

    /**
     * Repeats {@code attempt} until {@code done} accepts its result, and returns that result; after
     * {@code timeout} fails with the last result and this server's log.
     */
    <T> T await(String what, Duration timeout, java.util.concurrent.Callable<T> attempt,
                java.util.function.Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last;
        do {
            last = attempt.call();
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("timed out after " + timeout.toSeconds() + "s waiting for " + what + "; last: " + last
                + "\n" + log());
    }

    /** A system property the itest build sets. */
    static String property(String key) {
        String v = System.getProperty(key);
        if (v == null) {
            throw new IllegalStateException("system property " + key + " is not set: run the itests with mvn verify");
        }
        return v;
    }

    static SSLContext trusting(Path caCertificate) {
        try (InputStream in = Files.newInputStream(caCertificate)) {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("kubelix-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + caCertificate, e);
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        List<Path> paths;
        try (Stream<Path> s = Files.walk(from)) {
            paths = s.toList();
        }
        for (Path p : paths) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(target);
            } else {
                Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
