package io.kubelix.itest.e2e;

import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/plugins.md end to end: the two examples are built with Maven as a user builds them,
 * installed into a running distribution with {@code bin/kubelix plugin install}, used with
 * kubectl, and removed with {@code bin/kubelix plugin remove}. The methods run in order on one
 * server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PluginExamplesIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(30);
    private static final String WIDGET_PLUGIN = "io.kubelix.examples.widget-resource";
    private static final String ADMISSION_PLUGIN = "io.kubelix.examples.admission-deny-label";
    private static final String WIDGETS_LINE = "widgets\\s+wg\\s+sample\\.kubelix\\.io/v1\\s+true\\s+Widget";

    private Path work;
    private Path examples;
    private Path widgetJar;
    private Path admissionJar;
    private KubelixServer server;
    private Kubectl kubectl;

    @BeforeAll
    void buildExamplesAndStartServer() throws Exception {
        work = Path.of(System.getProperty("kubelix.itest.work", "target/itest-work"), "e2e",
                "plugins-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work.resolve("home"));
        Path root = Path.of(KubelixServer.property("kubelix.itest.root")).toAbsolutePath().normalize();
        examples = root.resolve("examples");
        Path localRepository = Path.of(KubelixServer.property("org.ops4j.pax.url.mvn.localRepository"));
        String version = KubelixServer.property("kubelix.itest.version");

        // 1. The examples, built as a user builds them, against this build's core-api.
        ExampleBuild.installCoreApi(localRepository, root, Path.of(KubelixServer.property("kubelix.itest.bundle.core-api")), version);
        widgetJar = ExampleBuild.build(examples, "widget-resource", work.resolve("build"), localRepository, version);
        admissionJar = ExampleBuild.build(examples, "admission-deny-label", work.resolve("build"), localRepository, version);

        // 2. A distribution of our own.
        server = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution.default")), work, READY_TIMEOUT);
        kubectl = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"), server.kubeconfig(), work.resolve("home"));
    }

    @AfterAll
    void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void pluginInstallCopiesTheBundlesAndTheServerStartsThem() throws Exception {
        Run installed = plugin("install", widgetJar.toString());
        assertEquals(0, installed.exitCode(), installed::toString);
        assertEquals("installed " + WIDGET_PLUGIN + " 1.0.0 as plugins/" + widgetJar.getFileName(), installed.out().trim());
        Run again = plugin("install", widgetJar.toString());
        assertEquals(1, again.exitCode(), again::toString);
        assertTrue(again.out().contains(WIDGET_PLUGIN + " is already installed"), again::toString);
        Run admission = plugin("install", admissionJar.toString());
        assertEquals(0, admission.exitCode(), admission::toString);

        Path notABundle = work.resolve("not-a-bundle.jar");
        Files.write(notABundle, new byte[] {'P', 'K', 3, 4});
        Run refused = plugin("install", notABundle.toString());
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.out().contains("is not an OSGi bundle"), refused::toString);

        // the server reports both Active (list asks /kubelix/plugins with the admin kubeconfig)
        await("both examples Active in plugin list", () -> plugin("list", "--data-dir", server.kubeconfig().getParent().toString()),
                r -> r.exitCode() == 0 && activeLine(r, widgetJar, WIDGET_PLUGIN) && activeLine(r, admissionJar, ADMISSION_PLUGIN));
    }

    @Test
    @Order(2)
    void apiResourcesListsWidgets() throws Exception {
        await("widgets in kubectl api-resources", () -> kubectl.run("api-resources"),
                r -> r.exitCode() == 0 && r.stdout().lines().anyMatch(l -> l.matches(WIDGETS_LINE)));
    }

    @Test
    @Order(3)
    void createdWidgetGetsTheDefaultSize() throws Exception {
        Result created = kubectl.ok("apply", "-f", examples.resolve("widget-resource/widget.yaml").toString());
        assertEquals("widget.sample.kubelix.io/my-widget created", created.stdout().trim());
        assertEquals("1 1", kubectl.ok("get", "widget", "my-widget", "-o",
                "jsonpath={.spec.size} {.metadata.generation}").stdout());
    }

    @Test
    @Order(3)
    void theWidgetSchemaIsExplainedAndEnforced() throws Exception {
        String explained = kubectl.ok("explain", "widget.spec.size").stdout();
        assertTrue(explained.contains("FIELD: size <integer>"), explained);
        assertTrue(explained.contains("Size is the number of parts of the widget"), explained);
        Result typo = kubectl.run("apply", "-f", yaml("typo-widget.yaml",
                widget("typo", "2").replace("spec:", "spec:\n  colour: red")).toString());
        assertNotEquals(0, typo.exitCode(), typo::toString);
        assertTrue(typo.stderr().contains("strict decoding error: unknown field \"spec.colour\""), typo::toString);
    }

    @Test
    @Order(4)
    void statusChangesOnlyThroughItsSubresource() throws Exception {
        kubectl.ok("patch", "widget", "my-widget", "--subresource=status", "--type=merge", "-p", "{\"status\":{\"ready\":true}}");
        kubectl.ok("patch", "widget", "my-widget", "--type=merge", "-p", "{\"status\":{\"ready\":false},\"spec\":{\"size\":2}}");
        String got = kubectl.ok("get", "widget", "my-widget", "-o",
                "jsonpath={.status.ready} {.spec.size} {.metadata.generation}").stdout();
        // the status patch of the widget itself is ignored; its spec change is generation 2
        assertEquals("true 2 2", got);
    }

    @Test
    @Order(5)
    void negativeSizeIsInvalidOnSpecSize() throws Exception {
        Result r = kubectl.run("apply", "-f", yaml("bad-widget.yaml", widget("bad", "-3")).toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The Widget \"bad\" is invalid"), r::toString);
        assertTrue(r.stderr().contains("spec.size"), r::toString);
        assertEquals(1, kubectl.run("get", "widget", "bad").exitCode());
    }

    @Test
    @Order(6)
    void getWidgetsShowsTheSizeColumn() throws Exception {
        kubectl.ok("apply", "-f", yaml("big-widget.yaml", widget("big", "7")).toString());
        Result table = kubectl.ok("get", "widgets");
        List<String> lines = table.stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+SIZE\\s+AGE"), table::toString);
        assertTrue(lines.stream().anyMatch(l -> l.matches("big\\s+7\\s+\\S+")), table::toString);
        assertTrue(lines.stream().anyMatch(l -> l.matches("my-widget\\s+2\\s+\\S+")), table::toString);
    }

    @Test
    @Order(7)
    void configMapWithTheForbiddenLabelIsRefused() throws Exception {
        Path labelled = yaml("forbidden-cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: forbidden\n"
                + "  labels:\n    kubelix.io/forbidden: \"true\"\ndata:\n  k: v\n");
        Result r = kubectl.run("apply", "-f", labelled.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Error from server (Forbidden)"), r::toString);
        assertTrue(r.stderr().contains("configmaps \"forbidden\" is forbidden: the label kubelix.io/forbidden=true"), r::toString);
        kubectl.ok("create", "configmap", "allowed", "--from-literal=k=v");
    }

    @Test
    @Order(8)
    void pluginRemoveTakesThePluginsAway() throws Exception {
        Run removed = plugin("remove", WIDGET_PLUGIN);
        assertEquals(0, removed.exitCode(), removed::toString);
        assertTrue(removed.out().startsWith("removed " + WIDGET_PLUGIN), removed::toString);
        await("widgets gone from kubectl api-resources", () -> kubectl.run("api-resources"),
                r -> r.exitCode() == 0 && r.stdout().contains("configmaps")
                        && r.stdout().lines().noneMatch(l -> l.matches(WIDGETS_LINE)));

        // the admission plugin by its file name: the label is accepted again
        Run admission = plugin("remove", admissionJar.getFileName().toString());
        assertEquals(0, admission.exitCode(), admission::toString);
        Path labelled = yaml("forbidden-cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: forbidden\n"
                + "  labels:\n    kubelix.io/forbidden: \"true\"\n");
        await("the labelled configmap accepted", () -> kubectl.run("apply", "-f", labelled.toString()),
                r -> r.exitCode() == 0);
        Run gone = plugin("remove", WIDGET_PLUGIN);
        assertEquals(1, gone.exitCode(), gone::toString);
        Run list = plugin("list");
        assertEquals(0, list.exitCode(), list::toString);
        assertTrue(list.out().lines().noneMatch(l -> l.contains("io.kubelix.examples.")), list::toString);
    }

    /** What {@code bin/kubelix plugin ...} printed (stdout and stderr together) and its exit code. */
    private record Run(List<String> command, int exitCode, String out) {
        @Override
        public String toString() {
            return String.join(" ", command) + " -> exit " + exitCode + "\n" + out;
        }
    }

    private Run plugin(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(server.plugins().getParent().resolve("bin/kubelix").toString(), "plugin"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(work, "plugin", ".out");
        Process p = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 60s");
        }
        Run r = new Run(command, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        Files.delete(out);
        return r;
    }

    private static boolean activeLine(Run list, Path jar, String symbolicName) {
        String line = "\\Q" + jar.getFileName() + "\\E\\s+\\Q" + symbolicName + "\\E\\s+1\\.0\\.0\\s+Active";
        return list.out().lines().anyMatch(l -> l.matches(line));
    }

    private Path yaml(String name, String content) throws IOException {
        Path file = work.resolve(name);
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    private static String widget(String name, String size) {
        return "apiVersion: sample.kubelix.io/v1\nkind: Widget\nmetadata:\n  name: " + name + "\nspec:\n  size: " + size + "\n";
    }

    private <T> T await(String what, Callable<T> attempt, java.util.function.Predicate<T> done) throws Exception {
        return server.await(what, POLL_TIMEOUT, attempt, done);
    }
}
