package io.kubelix.itest.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    /** slf4j-simple's and java.util.logging's (FileInstall's) names for warnings and errors. */
    private static final Pattern WARNING = Pattern.compile("\\b(WARN|ERROR|WARNING|SEVERE)\\b|Exception|^\\s+at \\S+\\(");

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

    private static List<String> readyLines(String log) {
        return log.lines().filter(l -> l.contains("Kubelix is ready on")).toList();
    }

    private static long pluginJars(Path plugins) throws Exception {
        try (Stream<Path> jars = Files.list(plugins)) {
            return jars.filter(j -> j.getFileName().toString().endsWith(".jar")).count();
        }
    }
}
