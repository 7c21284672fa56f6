package io.kubelix.itest.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kubelix in a plain Felix, as a user drops it into one: Felix's own launcher ({@code felix.jar})
 * auto-deploying the system bundles of the distribution (FileInstall aside) and some of its plugins
 * at one start level, with only {@code kubelix.data-dir} and {@code kubelix.secure-port} set (and
 * the authorization mode, for a set without RBAC): no {@code bin/kubelix}, no {@code kubelix.home},
 * the storage backend the default one (memory). With the four plugins of a small set, the server
 * used to pass {@code /readyz} before its storage check or the system namespaces' hook were even
 * registered, and namespace {@code default} was NotFound for seconds after.
 * {@code /readyz} is asked as fast as it answers from the moment the server listens; the first
 * time it is 200, namespace {@code default} is read at once with the admin token, and must be
 * there: readiness waits for storage and the served resources, whatever order the framework
 * starts the components in.
 */
class PlainFelixReadinessIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private Process felix;

    @AfterEach
    void stop() throws InterruptedException {
        if (felix != null && felix.isAlive()) {
            felix.destroy();
            if (!felix.waitFor(30, TimeUnit.SECONDS)) {
                felix.destroyForcibly();
                felix.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
            "storage-memory resource-core authn-token authz-authenticated; AlwaysAllow",
            "every plugin; RBAC"})
    void notReadyBeforeStorageIsUpAndNamespaceDefaultIsServed(String plugins, String authorizationMode) throws Exception {
        List<String> chosen = plugins.equals("every plugin") ? null : List.of(plugins.split(" "));
        Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution.default"));
        Path work = KubelixServer.workDirectory("plain-felix-" + authorizationMode);
        Path bundles = Files.createDirectories(work.resolve("bundle"));
        for (String folder : List.of("system", "plugins")) {
            try (Stream<Path> jars = Files.list(distribution.resolve(folder))) {
                for (Path jar : jars.filter(j -> j.getFileName().toString().endsWith(".jar")).toList()) {
                    String name = jar.getFileName().toString();
                    boolean wanted = folder.equals("system") ? !name.startsWith("org.apache.felix.fileinstall")
                            : chosen == null || chosen.contains(name.replaceFirst("-\\d.*\\.jar$", ""));
                    if (wanted) {
                        Files.copy(jar, bundles.resolve(jar.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
        Path dataDir = work.resolve("data");
        int port = KubelixServer.freePort();
        Path config = Files.writeString(work.resolve("config.properties"), String.join("\n",
                "org.osgi.framework.storage=" + work.resolve("felix-cache"),
                "org.osgi.framework.storage.clean=onFirstInit",
                "felix.auto.deploy.dir=" + bundles,
                "felix.auto.deploy.action=install,start",
                "gosh.args=--nointeractive",
                "kubelix.data-dir=" + dataDir,
                "kubelix.secure-port=" + port,
                "kubelix.authorization-mode=" + authorizationMode,
                ""));
        Path log = work.resolve("felix.log");
        felix = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dfelix.config.properties=" + config.toUri(), "-jar",
                distribution.resolve("bin").resolve("felix.jar").toString())
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();

        // Every /readyz answer until the first 200, as fast as the server answers.
        Set<String> failing = new LinkedHashSet<>();
        HttpClient client = null;
        URI base = URI.create("https://127.0.0.1:" + port);
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        String readyz = null;
        int answers = 0;
        while (readyz == null) {
            if (System.nanoTime() > deadline || !felix.isAlive()) {
                throw new AssertionError("not ready after " + READY_TIMEOUT.toSeconds() + " s (alive: " + felix.isAlive()
                        + ", failing checks seen: " + failing + ")\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            if (client == null) {
                if (!Files.isRegularFile(dataDir.resolve("pki").resolve("ca.crt"))) {
                    Thread.sleep(5);
                    continue;
                }
                client = HttpClient.newBuilder().sslContext(KubelixServer.trusting(dataDir.resolve("pki").resolve("ca.crt")))
                        .connectTimeout(Duration.ofSeconds(2)).build();
            }
            try {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve("/readyz?verbose"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                answers++;
                if (r.statusCode() == 200) {
                    readyz = r.body();
                } else {
                    r.body().lines().filter(l -> l.startsWith("[-]")).forEach(l -> failing.add(l.substring(3).split(" ")[0]));
                }
            } catch (IOException notListening) {
                Thread.sleep(5);
            }
        }
        // At once: the admin token reads namespace default.
        String token = Files.readAllLines(dataDir.resolve("tokens.csv"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("system:masters")).map(l -> l.split(",", 2)[0].trim()).findFirst().orElseThrow();
        HttpResponse<String> ns = client.send(HttpRequest.newBuilder(base.resolve("/api/v1/namespaces/default"))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ns.statusCode(), "namespace default when /readyz first passed (after " + answers
                + " answers; failing before: " + failing + "): " + ns.body() + "\n" + readyz);
        System.out.println("plain Felix: /readyz answered " + answers + " times before passing; checks seen failing: "
                + failing);

        for (String check : List.of("storage-backend", "informer-sync", "bundles-started",
                "poststarthook/start-system-namespaces-controller", "poststarthook/bootstrap-controller", "shutdown")) {
            assertTrue(readyz.contains("[+]" + check + " ok"), check + " in\n" + readyz);
        }

        // And kubectl, as a user would.
        Files.createDirectories(work.resolve("home"));
        Kubectl kubectl = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"),
                dataDir.resolve("admin.kubeconfig"), work.resolve("home"));
        assertTrue(kubectl.ok("get", "ns", "default").stdout().contains("Active"));
        List<String> resources = new ArrayList<>(kubectl.ok("api-resources", "-o", "name").stdout().lines().toList());
        assertTrue(resources.containsAll(List.of("namespaces", "configmaps")), resources::toString);
        assertEquals(chosen == null, resources.contains("deployments.apps"), resources::toString);
    }
}
