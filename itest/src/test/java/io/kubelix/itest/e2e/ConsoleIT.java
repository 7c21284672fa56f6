package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console at {@code /kubelix/console/} in a real headless Chromium against the default
 * distribution: the page loads without credentials but its data does not; signed in with the admin
 * token (kept in sessionStorage) it lists the plugins, their state and the served groups; when a
 * plugin is stopped through {@code bin/kubelix shell}, the page shows it stopped and its group gone
 * without a reload. Screenshots of both moments are left in the work directory ({@code console.png},
 * {@code console-stopped.png}); {@code docs/console.png} is one of the first kind.
 */
class ConsoleIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String APPS = "io.kubelix.resource-apps";
    private static final String ROWS = "JSON.stringify([...document.querySelectorAll('#plugins tbody tr')]"
            + ".map(r => r.dataset.plugin + '=' + r.dataset.state))";
    private static final String GROUPS = "JSON.stringify([...document.querySelectorAll('#resources tbody tr')]"
            + ".map(r => r.dataset.groupVersion))";

    private static Path work;
    private static KubelixServer server;

    @BeforeAll
    static void start() throws Exception {
        work = KubelixServer.workDirectory("console");
        server = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution.default")), work,
                READY_TIMEOUT, "--storage-backend", "memory");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theConsoleListsPluginsAndShowsOneStopping() throws Exception {
        assertEquals(200, server.get("/kubelix/console/", null).statusCode(), "the page itself needs no token");
        assertEquals(401, server.get("/kubelix/console/state", "not-a-token").statusCode());
        assertEquals(200, server.get("/kubelix/console/state", adminToken()).statusCode());

        Path chromium = HeadlessChromium.find().orElse(null);
        assumeTrue(chromium != null, "no Chromium (Debian's chromium package, or -Dkubelix.itest.chromium=): skipped");
        try (HeadlessChromium browser = HeadlessChromium.start(chromium, work)) {
            browser.navigate("https://127.0.0.1:" + server.port() + "/kubelix/console/");
            // until the page has loaded, the form is not there yet
            await(browser, "the sign-in form", "String(document.getElementById('login')?.hidden === false)",
                    "true"::equals);

            browser.eval("document.getElementById('token').value = '" + adminToken() + "';"
                    + "document.getElementById('sign-in').click(); true");
            String rows = await(browser, "resource-apps listed as Active", ROWS, r -> r.contains(APPS + "=Active"));
            assertTrue(rows.contains("io.kubelix.resource-core=Active"), rows);
            assertTrue(await(browser, "apps/v1 served", GROUPS, g -> g.contains("\"apps/v1\"")).contains("\"v1\""));
            assertEquals("true", browser.eval("String(sessionStorage.getItem('kubelix.console.token') !== null)"));
            Files.write(work.resolve("console.png"), browser.screenshot());

            Run stopped = shell("stop", Long.toString(bundleId(APPS)));
            assertEquals(0, stopped.exitCode(), stopped::toString);

            await(browser, "resource-apps shown stopped", ROWS, r -> r.contains(APPS + "=Resolved"));
            await(browser, "apps/v1 no longer served", GROUPS, g -> !g.contains("\"apps/v1\""));
            Files.write(work.resolve("console-stopped.png"), browser.screenshot());
        }
    }

    /** Evaluates {@code expression} until {@code done} accepts its value; that value. */
    private static String await(HeadlessChromium browser, String what, String expression, Predicate<String> done)
            throws Exception {
        long deadline = System.nanoTime() + PAGE_TIMEOUT.toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            last = browser.eval(expression);
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the console did not show " + what + " within " + PAGE_TIMEOUT.toSeconds()
                + " s; last: " + last + "\nstatus: " + browser.eval("document.getElementById('status').textContent"));
    }

    private static long bundleId(String symbolicName) throws Exception {
        JsonNode plugins = JSON.readTree(server.get("/kubelix/plugins", adminToken()).body()).path("plugins");
        for (JsonNode p : plugins) {
            if (p.path("symbolicName").asText().equals(symbolicName)) {
                return p.path("bundleId").asLong();
            }
        }
        throw new AssertionError(symbolicName + " is not among the plugins: " + plugins);
    }

    private static String adminToken() throws IOException {
        return Files.readAllLines(server.dataDir().resolve("tokens.csv"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("system:masters")).map(l -> l.split(",", 2)[0].trim())
                .findFirst().orElseThrow();
    }

    record Run(List<String> command, int exitCode, String output) {
    }

    /** {@code bin/kubelix shell --data-dir <the server's> args...}, as an operator stops a plugin. */
    private static Run shell(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(server.home().resolve("bin/kubelix").toString(), "shell",
                "--data-dir", server.dataDir().toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(work, "shell", ".out");
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).redirectOutput(out.toFile());
        pb.environment().put("HOME", work.resolve("home").toString());
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
        }
        return new Run(command, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }
}
