package io.kubelix.junit;

import io.kubelix.junit.impl.AdminHttp;
import io.kubelix.junit.impl.EmbeddedBundles;
import io.kubelix.junit.impl.EmbeddedFramework;
import io.kubelix.junit.impl.IdleFrameworks;
import io.kubelix.junit.impl.PkiCache;
import org.osgi.framework.BundleException;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Kubelix API server running inside this JVM: an embedded Felix framework with the
 * distribution's bundles, memory storage, a free loopback port and a temporary data directory,
 * deleted when the framework stops ({@link #close()} keeps the framework for the next server with
 * the same flags). {@link #start} returns once {@code /readyz} answers 200 and the
 * admin token is accepted. The JUnit extension ({@link KubelixTest}) starts and stops these for
 * tests; this class can also be used on its own.
 */
public final class KubelixServer implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /** Flags the server gets from here: a free port, loopback, a fresh data directory. */
    private static final Pattern YAML_DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---[ \\t]*(#.*)?$");
    /** The object's name: the first "name" of a created object or a Status' details. */
    private static final Pattern JSON_NAME = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]+)\"");
    /** A condition Established=True; a condition is a flat object, so neither part leaves its braces. */
    private static final Pattern ESTABLISHED = Pattern.compile(
            "\"type\"\\s*:\\s*\"Established\"[^{}]*\"status\"\\s*:\\s*\"True\""
                    + "|\"status\"\\s*:\\s*\"True\"[^{}]*\"type\"\\s*:\\s*\"Established\"");
    private static final Set<String> CHOSEN_HERE = Set.of("secure-port", "bind-address", "data-dir");
    /**
     * The system property that, set to {@code false}, makes every server a new framework instead of
     * one whose closed server's framework is reused ({@link IdleFrameworks}).
     */
    public static final String REUSE_FRAMEWORKS = "kubelix.junit.reuse-frameworks";

    private final Map<String, String> flags;
    private final int port;

    private final EmbeddedFramework framework;
    private final Path directory;
    private final URI url;
    private final String adminToken;
    private final SSLContext sslContext;
    private final AdminHttp http;
    private final Duration startupTime;

    private KubelixServer(Map<String, String> flags, int port, EmbeddedFramework framework, Path directory, URI url,
                          String adminToken, SSLContext sslContext, AdminHttp http, Duration startupTime) {
        this.flags = flags;
        this.port = port;
        this.framework = framework;
        this.directory = directory;
        this.url = url;
        this.adminToken = adminToken;
        this.sslContext = sslContext;
        this.http = http;
        this.startupTime = startupTime;
    }

    /** Starts a server with the default flags (authorization mode RBAC, memory storage). */
    public static KubelixServer start() {
        return start(Map.of());
    }

    /**
     * Starts a server with kube-apiserver flags by name without dashes, as {@code bin/kubelix} takes
     * them, e.g. {@code Map.of("authorization-mode", "AlwaysAllow")}.
     *
     * @throws IllegalArgumentException when a flag is one the server gets from here (port, bind
     *                                  address, data directory)
     * @throws IllegalStateException    when the server is not ready within 60 s; the message says why
     */
    public static KubelixServer start(Map<String, String> flags) {
        for (String flag : flags.keySet()) {
            if (CHOSEN_HERE.contains(flag)) {
                throw new IllegalArgumentException("--" + flag + " is chosen by kubelix-junit: a free loopback port "
                        + "and a temporary data directory");
            }
        }
        long started = System.nanoTime();
        flags = Map.copyOf(flags);
        IdleFrameworks.Idle idle = IdleFrameworks.take(flags);
        if (idle != null) {
            KubelixServer server = restart(idle, started);
            if (server != null) {
                return server;
            }
        }
        Path directory = null;
        EmbeddedFramework framework = null;
        try {
            // 1. A private data directory with this JVM's PKI, when an earlier server made one.
            directory = Files.createTempDirectory("kubelix-junit-");
            PkiCache.seed(directory);
            // 2. The framework properties: the defaults of bin/kubelix's config.properties, then the flags.
            int port = freePort();
            Map<String, String> properties = new HashMap<>(frameworkDefaults());
            properties.put("kubelix.storage-backend", "memory");
            flags.forEach((name, value) -> properties.put("kubelix." + name, value));
            properties.put("kubelix.secure-port", Integer.toString(port));
            properties.put("kubelix.bind-address", "127.0.0.1");
            properties.put("kubelix.data-dir", directory.toString());
            // 3. The framework and its bundles.
            framework = EmbeddedFramework.start(properties, directory.resolve("felix-cache"), EmbeddedBundles.files());
            // 4. Ready: /readyz, and the admin token accepted.
            URI url = URI.create("https://127.0.0.1:" + port + "/");
            awaitFile(directory.resolve("admin.kubeconfig"), framework, started);
            SSLContext ssl = AdminHttp.trusting(directory.resolve("pki").resolve("ca.crt"));
            String token = adminToken(directory.resolve("tokens.csv"));
            AdminHttp http = new AdminHttp(url, token, ssl);
            awaitReady(http, framework, started);
            PkiCache.remember(directory);
            return new KubelixServer(flags, port, framework, directory, url, token, ssl, http,
                    Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException | RuntimeException | BundleException e) {
            cleanUp(framework, directory);
            if (e instanceof IllegalStateException ise) {
                throw ise;
            }
            throw new IllegalStateException("Kubelix cannot start: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cleanUp(framework, directory);
            throw new IllegalStateException("interrupted while Kubelix was starting", e);
        }
    }

    /**
     * A new server in the framework of a closed one: its Kubelix bundles started again, on the
     * closed server's port and data directory. Null when it does not start (the port was taken
     * meanwhile, say): the framework is then stopped, and a new one is started instead.
     */
    private static KubelixServer restart(IdleFrameworks.Idle idle, long started) {
        AdminHttp http = null;
        try {
            idle.framework().startKubelix();
            URI url = URI.create("https://127.0.0.1:" + idle.port() + "/");
            SSLContext ssl = AdminHttp.trusting(idle.directory().resolve("pki").resolve("ca.crt"));
            String token = adminToken(idle.directory().resolve("tokens.csv"));
            http = new AdminHttp(url, token, ssl);
            awaitReady(http, idle.framework(), started);
            return new KubelixServer(idle.flags(), idle.port(), idle.framework(), idle.directory(), url, token, ssl,
                    http, Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException | RuntimeException | BundleException e) {
            // a new framework is started instead, whose failure, if it fails too, is the one reported
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (http != null) {
            http.close();
        }
        cleanUp(idle.framework(), idle.directory());
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("interrupted while Kubelix was starting");
        }
        return null;
    }

    /** The server's base URL, {@code https://127.0.0.1:<port>/}. */
    public URI url() {
        return url;
    }

    /** {@code admin.kubeconfig}: the admin user (group system:masters) by token, trusting the server's CA. */
    public Path kubeconfig() {
        return directory.resolve("admin.kubeconfig");
    }

    /** The CA certificate (PEM) that signed the serving certificate. */
    public Path caCertificate() {
        return directory.resolve("pki").resolve("ca.crt");
    }

    /** The admin user's bearer token (group system:masters). */
    public String adminToken() {
        return adminToken;
    }

    /** An SSL context trusting {@link #caCertificate()} only, for clients of one's own. */
    public SSLContext sslContext() {
        return sslContext;
    }

    /** The server's data directory, deleted by {@link #close()}. */
    public Path dataDirectory() {
        return directory;
    }

    /** How long {@link #start} took, from its call to the first accepted request. */
    public Duration startupTime() {
        return startupTime;
    }

    /** Creates a namespace as the admin user; {@link #deleteNamespace} starts its deletion. */
    public void createNamespace(String name) {
        HttpResponse<String> response = call(() -> http.post("api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}"));
        if (response.statusCode() != 201) {
            throw new IllegalStateException("cannot create namespace " + name + ": " + response.statusCode() + " "
                    + response.body());
        }
    }

    /**
     * Creates the CustomResourceDefinitions of a YAML text (documents separated by {@code ---}) and
     * waits until each is Established, so that its resources are served; one that exists already
     * is only waited for.
     *
     * @return the definitions' names
     * @throws IllegalStateException when one is refused, or not established within 60 s
     */
    public List<String> createCustomResourceDefinitions(String yaml) {
        String path = "apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        List<String> names = new ArrayList<>();
        for (String document : YAML_DOCUMENT_SEPARATOR.split(yaml)) {
            if (document.lines().allMatch(line -> line.isBlank() || line.trim().startsWith("#"))) {
                continue;
            }
            HttpResponse<String> created = call(() -> http.postYaml(path, document));
            Matcher name = JSON_NAME.matcher(created.body());
            if ((created.statusCode() != 201 && created.statusCode() != 409) || !name.find()) {
                throw new IllegalStateException("cannot create a CustomResourceDefinition: " + created.statusCode() + " "
                        + created.body());
            }
            names.add(name.group(1));
        }
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        for (String name : names) {
            String last = "";
            while (!ESTABLISHED.matcher(last).find()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("CustomResourceDefinition " + name + " was not established within "
                            + READY_TIMEOUT.toSeconds() + " s: " + last);
                }
                last = call(() -> http.get(path + "/" + name)).body();
                if (!ESTABLISHED.matcher(last).find()) {
                    sleep(20);
                }
            }
        }
        return names;
    }

    /** Starts deleting a namespace (the namespace controller empties it); a missing one is no error. */
    public void deleteNamespace(String name) {
        HttpResponse<String> response = call(() -> http.delete("api/v1/namespaces/" + name));
        if (response.statusCode() != 200 && response.statusCode() != 202 && response.statusCode() != 404) {
            throw new IllegalStateException("cannot delete namespace " + name + ": " + response.statusCode() + " "
                    + response.body());
        }
    }

    /**
     * Stops the server. Its framework is kept for the next server with the same flags, with its
     * Kubelix bundles stopped (the server drains and stops with them) and its data directory, unless
     * {@value #REUSE_FRAMEWORKS} is {@code false}; otherwise it is stopped and the data directory
     * deleted.
     */
    @Override
    public void close() {
        http.close();
        if (Boolean.parseBoolean(System.getProperty(REUSE_FRAMEWORKS, "true"))) {
            try {
                framework.stopKubelix();
                IdleFrameworks.put(new IdleFrameworks.Idle(flags, framework, directory, port),
                        idle -> cleanUp(idle.framework(), idle.directory()));
                return;
            } catch (BundleException | RuntimeException e) {
                // not reusable: stopped below
            }
        }
        cleanUp(framework, directory);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private interface Call {
        HttpResponse<String> send() throws IOException, InterruptedException;
    }

    private static HttpResponse<String> call(Call call) {
        try {
            return call.send();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Map<String, String> frameworkDefaults() {
        Properties defaults = new Properties();
        try (InputStream in = KubelixServer.class.getResourceAsStream("/META-INF/kubelix/framework.properties")) {
            if (in != null) {
                defaults.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> map = new HashMap<>();
        defaults.stringPropertyNames().forEach(name -> map.put(name, defaults.getProperty(name)));
        return map;
    }

    /** The server writes its kubeconfig once it listens, after its CA, certificates and token file. */
    private static void awaitFile(Path file, EmbeddedFramework framework, long started) throws InterruptedException {
        while (!Files.exists(file)) {
            if (timedOut(started)) {
                throw new IllegalStateException("Kubelix did not listen within " + READY_TIMEOUT.toSeconds()
                        + " s (its log above says why); bundles not active: " + framework.inactiveBundles());
            }
            Thread.sleep(5);
        }
    }

    /**
     * {@code /readyz} 200, then namespace {@code default} read with the admin token: the token
     * authenticator may register just after readiness, and a test's first request must not be a 401.
     */
    private static void awaitReady(AdminHttp http, EmbeddedFramework framework, long started)
            throws InterruptedException {
        String last = "no answer";
        while (!timedOut(started)) {
            try {
                HttpResponse<String> readyz = http.get("readyz?verbose");
                if (readyz.statusCode() == 200) {
                    HttpResponse<String> probe = http.get("api/v1/namespaces/default");
                    if (probe.statusCode() == 200) {
                        return;
                    }
                    last = "GET namespace default: " + probe.statusCode() + " " + probe.body();
                } else {
                    last = "/readyz " + readyz.statusCode() + ":\n" + readyz.body();
                }
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("Kubelix was not ready within " + READY_TIMEOUT.toSeconds() + " s: " + last
                + "\nbundles not active: " + framework.inactiveBundles());
    }

    private static boolean timedOut(long started) {
        return System.nanoTime() - started > READY_TIMEOUT.toNanos();
    }

    private static String adminToken(Path tokens) throws IOException {
        // tokens.csv (kube's --token-auth-file): token,user,uid,"groups"; the admin's line is written first
        for (String line : Files.readAllLines(tokens)) {
            String[] fields = line.split(",", 3);
            if (fields.length >= 2 && fields[1].equals("admin")) {
                return fields[0];
            }
        }
        throw new IllegalStateException(tokens + " has no admin token");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void cleanUp(EmbeddedFramework framework, Path directory) {
        try {
            if (framework != null) {
                framework.stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (directory != null) {
                deleteTree(directory);
            }
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a temporary directory left behind is no reason to fail a test run
        }
    }
}
