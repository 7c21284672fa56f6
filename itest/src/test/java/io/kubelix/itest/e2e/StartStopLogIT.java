package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the log of a normal run says: the real distribution ({@code bin/kubelix}) started, used and
 * stopped with SIGTERM. One info line when the server is first ready, with its address, kubeconfig,
 * storage backend, plugin count and the time it took; a line saying it is stopping and one saying it
 * stopped; and no warning or error anywhere: not from controllers and informers that start before
 * the storage plugin, not from plugins stopping (a framework shutdown is no plugin update), not from
 * failed readiness probes. The stop takes well under the plugin swap grace period (10 s), which a
 * shutdown taken for an update would wait out.
 */
class StartStopLogIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /** Well under the swap grace period of 10 s that a shutdown taken for a plugin update waits out per plugin. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(5);
    private static final Pattern READY = Pattern.compile("INFO GenericAPIServer - Kubelix is ready on (\\S+), "
            + "(\\d+\\.\\d) s after start: kubeconfig (\\S+), storage backend (\\S+), (\\d+) plugins");
    /** Logback's and java.util.logging's names for warnings and errors. */
    private static final Pattern WARNING = Pattern.compile("\\b(WARN|ERROR|WARNING|SEVERE)\\b|Exception|^\\s+at \\S+\\(");

    private static final ObjectMapper JSON = new ObjectMapper();

    private KubelixServer server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "--storage-backend {0}")
    @ValueSource(strings = {"sqlite", "memory"})
    void aNormalStartAndStopLogTheReadyLineAndNoWarning(String backend) throws Exception {
        Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution.default"));
        Path work = KubelixServer.workDirectory("start-stop-" + backend);
        server = KubelixServer.start(distribution, work, READY_TIMEOUT, "--storage-backend", backend);
        Kubectl kubectl = server.kubectl(work);
        assertTrue(kubectl.ok("get", "ns", "default").stdout().contains("Active"));
        kubectl.ok("create", "configmap", "hello", "--from-literal=k=v");

        // The ready line: logged once readiness holds (checked every 100 ms), so at most a moment after /readyz passed.
        String ready = server.await("the ready line", Duration.ofSeconds(10), () -> readyLines(server.log()),
                lines -> !lines.isEmpty()).get(0);
        Matcher m = READY.matcher(ready);
        assertTrue(m.find(), ready);
        assertEquals("https://127.0.0.1:" + server.port(), m.group(1), ready);
        assertTrue(Double.parseDouble(m.group(2)) > 0 && Double.parseDouble(m.group(2)) < READY_TIMEOUT.toSeconds(), ready);
        assertEquals(server.kubeconfig().toString(), m.group(3), ready);
        assertEquals(backend, m.group(4), ready);
        assertEquals(pluginJars(server.plugins()), Integer.parseInt(m.group(5)), ready);

        long begin = System.nanoTime();
        assertEquals(0, server.terminate(Duration.ofSeconds(30)), server::log);
        Duration took = Duration.ofNanos(System.nanoTime() - begin);
        assertTrue(took.compareTo(STOP_BOUND) < 0, "the stop took " + took.toMillis() + " ms\n" + server.log());

        String log = server.log();
        assertEquals(1, readyLines(log).size(), log);
        assertTrue(log.contains("Kubelix is stopping: /readyz fails from now on"), log);
        assertTrue(log.contains("INFO GenericAPIServer - Kubelix stopped, "), log);
        assertFalse(log.contains("being updated"), log);
        List<String> warnings = log.lines().filter(l -> WARNING.matcher(l).find()).toList();
        assertEquals(List.of(), warnings, log);
    }

    /**
     * {@code --logging-format=json}: every line the server writes is one JSON object in kube's shape,
     * and at {@code -v=3} each request gets its line, as kube-apiserver's httplog writes it.
     */
    @Test
    void jsonLogsHaveOneObjectPerLineAndAtVerbosityThreeOnePerRequest() throws Exception {
        Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution.default"));
        Path work = KubelixServer.workDirectory("start-stop-json");
        server = KubelixServer.start(distribution, work, READY_TIMEOUT, "--logging-format=json", "-v=3");
        Kubectl kubectl = server.kubectl(work);
        kubectl.ok("create", "configmap", "logged", "--from-literal=k=v");
        JsonNode created = server.await("the create's request line", Duration.ofSeconds(10), () -> jsonLines(server),
                        lines -> lines.stream().anyMatch(StartStopLogIT::isTheCreate))
                .stream().filter(StartStopLogIT::isTheCreate).findFirst().orElseThrow();
        assertEquals("io.kubelix.httplog", created.path("logger").asText(), created.toString());
        assertEquals(201, created.path("resp").asInt(), created.toString());
        assertTrue(created.path("userAgent").asText().startsWith("kubectl/"), created.toString());
        assertTrue(created.path("latency").asText().matches("[0-9.]+(ns|µs|ms|s)"), created.toString());
        assertTrue(created.path("srcIP").asText().startsWith("127.0.0.1:"), created.toString());
        assertEquals(36, created.path("audit-ID").asText().length(), created.toString());
        assertEquals(3, created.path("v").asInt(), created.toString());

        assertEquals(0, server.terminate(Duration.ofSeconds(30)), server::log);
        List<JsonNode> lines = jsonLines(server);
        JsonNode ready = lines.stream().filter(l -> l.path("msg").asText().startsWith("Kubelix is ready on")).findFirst()
                .orElseThrow(() -> new AssertionError(server.log()));
        assertEquals(0, ready.path("v").asInt(), ready.toString());
        assertTrue(ready.path("ts").isNumber(), ready.toString());
        assertEquals("io.kubelix.runtime.server.GenericAPIServer", ready.path("logger").asText(), ready.toString());
        assertTrue(lines.stream().anyMatch(l -> l.path("logger").asText().contains("fileinstall")),
                "FileInstall's java.util.logging lines are JSON too");
    }

    @Test
    void aLoggingFormatOrVerbosityTheServerDoesNotKnowIsRefused() throws Exception {
        Path kubelix = Path.of(KubelixServer.property("kubelix.itest.distribution.default"), "bin", "kubelix");
        for (List<String> flags : List.of(List.of("--logging-format=xml"), List.of("-v", "loud"))) {
            List<String> command = new java.util.ArrayList<>(List.of(kubelix.toString()));
            command.addAll(flags);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(2, p.exitValue(), out);
            assertTrue(out.contains(flags.get(0).equals("-v") ? "invalid argument \"loud\" for \"-v, --v\" flag"
                    : "invalid --logging-format \"xml\": Unsupported log format"), out);
        }
    }

    private static boolean isTheCreate(JsonNode line) {
        return line.path("msg").asText().equals("HTTP") && line.path("verb").asText().equals("POST")
                && line.path("URI").asText().startsWith("/api/v1/namespaces/default/configmaps");
    }

    /** Every line of the server's output, each of which must be a JSON object. */
    private static List<JsonNode> jsonLines(KubelixServer server) throws IOException {
        List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(server.logFile())) {
            if (line.isBlank()) {
                continue;
            }
            try {
                JsonNode node = JSON.readTree(line);
                assertTrue(node.isObject(), line);
                lines.add(node);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new AssertionError("not a JSON line: " + line, e);
            }
        }
        return lines;
    }

    private static List<String> readyLines(String log) {
        return log.lines().filter(l -> l.contains("Kubelix is ready on")).toList();
    }

    private static long pluginJars(Path plugins) throws Exception {
        try (Stream<Path> jars = Files.list(plugins)) {
            return jars.filter(j -> j.getFileName().toString().endsWith(".jar")).count();
        }
    }
}
