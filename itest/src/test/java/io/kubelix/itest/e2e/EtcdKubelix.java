package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One Kubelix instance on shared storage for the e2e tests: a private copy of the built distribution
 * started with {@code bin/kubelix --storage-backend etcd3 --etcd-servers ... --etcd-prefix ...} (or
 * other storage flags, such as PostgreSQL's) on a free port and its own data directory, stopped by its PID and startable again on the same home, data
 * directory and port. Speaks HTTPS (HTTP/2) trusting the instance's CA with its admin token.
 */
final class EtcdKubelix implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final Path home;
    private final Path dataDir;
    private final Path work;
    private final int port;
    private final List<String> storageArgs;
    private Process process;
    private int starts;
    private Thread shutdownHook;
    private HttpClient http;
    private String token;

    private EtcdKubelix(String name, Path work, List<String> storageArgs) {
        this.name = name;
        this.work = work;
        this.home = work.resolve("kubelix");
        this.dataDir = work.resolve("data");
        this.port = KubelixServer.freePort();
        this.storageArgs = storageArgs;
    }

    /** Copies the distribution under {@code work} and starts it on etcd; returns once {@code /readyz} is 200. */
    static EtcdKubelix start(String name, Path distribution, Path work, String etcdEndpoint, String etcdPrefix)
            throws IOException, InterruptedException {
        return start(name, distribution, work, List.of("--storage-backend", "etcd3",
                "--etcd-servers", etcdEndpoint, "--etcd-prefix", etcdPrefix));
    }

    /** Copies the distribution under {@code work} and starts it with {@code storageArgs}; returns once {@code /readyz} is 200. */
    static EtcdKubelix start(String name, Path distribution, Path work, List<String> storageArgs)
            throws IOException, InterruptedException {
        if (!Files.isExecutable(distribution.resolve("bin").resolve("kubelix"))) {
            throw new IllegalStateException(distribution + "/bin/kubelix is missing: build the distribution module first");
        }
        EtcdKubelix k = new EtcdKubelix(name, work, storageArgs);
        KubelixServer.copyTree(distribution, k.home);
        k.start();
        return k;
    }

    /** Starts (again) on the same home, data directory and port; returns once {@code /readyz} is 200. */
    void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is running");
        }
        List<String> cmd = new ArrayList<>(List.of(home.resolve("bin").resolve("kubelix").toString(),
                "--secure-port", Integer.toString(port), "--data-dir", dataDir.toString()));
        cmd.addAll(storageArgs);
        Path log = log();
        starts++;
        process = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (shutdownHook == null) {
            shutdownHook = new Thread(() -> {
                Process p = process;
                if (p != null) {
                    p.destroy();
                }
            }, "kubelix-" + name + "-stopper");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        System.out.println("kubelix " + name + " started: pid " + process.pid() + ", port " + port + ", log " + log);
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("kubelix " + name + " exited with " + process.exitValue() + "\n" + logTail());
            }
            if (Files.isRegularFile(dataDir.resolve("pki").resolve("ca.crt"))) {
                try {
                    Response r = send("GET", "/readyz", null, null, Duration.ofSeconds(5));
                    if (r.status() == 200) {
                        return;
                    }
                    last = r.toString();
                } catch (IOException | RuntimeException e) {
                    last = e.toString();
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("kubelix " + name + " not ready (last /readyz: " + last + ")\n" + logTail());
    }

    /** The secure port it listens on. */
    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM to the PID (Felix's shutdown hook stops the bundles), SIGKILL only if it hangs. */
    void stop() throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            System.err.println("kubelix " + name + " pid " + process.pid() + " did not stop within 30s: killing it");
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            shutdownHook = null;
        }
    }

    Path kubeconfig() {
        return dataDir.resolve("admin.kubeconfig");
    }

    Kubectl kubectl(String executable) throws IOException {
        Path kubectlHome = Files.createDirectories(work.resolve("kubectl-home"));
        return new Kubectl(executable, kubeconfig(), kubectlHome);
    }

    Path log() {
        return work.resolve("kubelix.log");
    }

    String logTail() {
        try {
            String s = Files.readString(log(), StandardCharsets.UTF_8);
            return "---- " + log() + " (end) ----\n" + (s.length() > 6000 ? s.substring(s.length() - 6000) : s);
        } catch (IOException e) {
            return "(cannot read " + log() + ": " + e + ")";
        }
    }

    /** A response and its body. */
    record Response(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }

        boolean ok() {
            return status / 100 == 2;
        }

        @Override
        public String toString() {
            return status + " " + (body.length() > 500 ? body.substring(0, 500) + "..." : body);
        }
    }

    Response get(String path) throws IOException, InterruptedException {
        return send("GET", path, null, null, Duration.ofSeconds(20));
    }

    /** One request with the admin token; {@code timeout} bounds the whole exchange. */
    Response send(String method, String path, String contentType, String body, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(timeout)
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + token())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        HttpResponse<String> r = client().send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Response(r.statusCode(), r.body());
    }

    /** Opens a streaming GET (a watch); the caller reads and closes the body. */
    HttpResponse<Stream<String>> stream(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri(path))
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + token())
                .GET().build();
        return client().send(request, HttpResponse.BodyHandlers.ofLines());
    }

    private URI uri(String path) {
        return URI.create("https://127.0.0.1:" + port + path);
    }

    private synchronized HttpClient client() {
        if (http == null) {
            http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5))
                    .sslContext(KubelixServer.trusting(dataDir.resolve("pki").resolve("ca.crt"))).build();
        }
        return http;
    }

    /** The admin line of tokens.csv: {@code token,admin,admin,"system:masters"}. */
    private synchronized String token() throws IOException {
        if (token == null) {
            for (String line : Files.readAllLines(dataDir.resolve("tokens.csv"), StandardCharsets.UTF_8)) {
                if (line.contains("system:masters")) {
                    token = line.split(",", 2)[0].trim();
                }
            }
            if (token == null) {
                throw new AssertionError("no system:masters token in " + dataDir.resolve("tokens.csv"));
            }
        }
        return token;
    }
}
