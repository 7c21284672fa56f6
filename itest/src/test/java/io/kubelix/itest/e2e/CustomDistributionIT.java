package io.kubelix.itest.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A custom distribution built as {@code docs/distributions.md} says, while a server runs from the
 * default tree ({@code distribution/target/kubelix}, started in place as a user starts it): the build
 * writes only {@code distribution/target/<name>/} and {@code <name>-<version>.tar.gz}, and the server
 * keeps serving kubectl with all its plugins. A misspelt plugin name fails the build with a message
 * naming it, also under {@code -q}, and changes nothing either.
 */
class CustomDistributionIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final long BUILD_TIMEOUT_MINUTES = 15;
    private static final String NAME = "kubelix-itest-custom";
    private static final String PLUGINS = "storage-sql,resource-core,resource-rbac,authn-token,authz-rbac";

    private KubelixServer server;
    private Path target;

    @AfterEach
    void cleanUp() throws Exception {
        if (server != null) {
            server.close();
        }
        if (target != null) {
            deleteTree(target.resolve(NAME));
            Files.deleteIfExists(target.resolve(NAME + "-" + KubelixServer.property("kubelix.itest.version") + ".tar.gz"));
        }
    }

    @Test
    void aCustomBuildLeavesTheDefaultTreeAndItsServerAlone() throws Exception {
        Path root = Path.of(KubelixServer.property("kubelix.itest.root")).toAbsolutePath().normalize();
        Path defaultTree = Path.of(KubelixServer.property("kubelix.itest.distribution.default")).toAbsolutePath().normalize();
        target = defaultTree.getParent();
        String version = KubelixServer.property("kubelix.itest.version");
        Path work = KubelixServer.workDirectory("custom-distribution");
        Map<String, String> before = digests(defaultTree);

        server = KubelixServer.startInPlace(defaultTree, work, READY_TIMEOUT);
        Kubectl kubectl = server.kubectl(work);
        server.awaitServed(kubectl, READY_TIMEOUT, "configmaps");
        kubectl.ok("create", "configmap", "before", "--from-literal=k=v");
        String plugins = kubectl.ok("get", "--raw", "/kubelix/plugins").stdout();

        // 1. A misspelt name: the build fails saying which, under -q too, and writes no tree.
        Build misspelt = build(root, work, "misspelt", "-Dkubelix.plugins=storage-sql,resorce-core",
                "-Dkubelix.distribution.name=" + NAME);
        assertNotEquals(0, misspelt.exitCode(), misspelt::toString);
        assertTrue(misspelt.output().contains("Custom distribution: no plugin named resorce-core in this build; the plugins "
                + "are: "), misspelt::toString);
        assertFalse(Files.exists(target.resolve(NAME + "-" + version + ".tar.gz")), misspelt::toString);

        // 2. The documented command: its own tree and tar.gz, with only the chosen plugins.
        Build custom = build(root, work, "custom", "-Dkubelix.plugins=" + PLUGINS, "-Dkubelix.distribution.name=" + NAME);
        assertEquals(0, custom.exitCode(), custom::toString);
        assertEquals(List.of(PLUGINS.split(",")).stream().sorted().toList(), pluginNames(target.resolve(NAME)));
        assertTrue(Files.isExecutable(target.resolve(NAME).resolve("bin/kubelix")));
        assertTrue(Files.isRegularFile(target.resolve(NAME + "-" + version + ".tar.gz")));

        // The default tree is byte for byte what it was, and its server still serves, with every plugin.
        assertEquals(before, digests(defaultTree), "the custom build changed " + defaultTree);
        Thread.sleep(2_000); // FileInstall polls every 250 ms: what it would see, it has seen
        assertEquals("before", kubectl.ok("get", "configmap", "before", "-o", "jsonpath={.metadata.name}").stdout());
        kubectl.ok("create", "configmap", "after", "--from-literal=k=v");
        assertTrue(kubectl.ok("get", "ns", "default").stdout().contains("Active"));
        assertEquals(plugins, kubectl.ok("get", "--raw", "/kubelix/plugins").stdout(),
                "the server's plugins changed during the custom build");
        assertFalse(server.log().contains("Uninstalled bundle"), server::log);
    }

    /** What one build printed and how it ended. */
    private record Build(List<String> command, int exitCode, String output) {
        @Override
        public String toString() {
            return String.join(" ", command) + " -> exit " + exitCode + "\n" + output;
        }
    }

    /**
     * The command of {@code docs/distributions.md} (with the Maven running this build, offline, in its
     * local repository, and {@code -q}, which shows errors only).
     */
    private static Build build(Path root, Path work, String log, String... properties)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ExampleBuild.maven(), "-B", "-q", "-o", "-DskipTests",
                "-pl", "distribution", "-am", "package",
                "-Dmaven.repo.local=" + KubelixServer.property("org.ops4j.pax.url.mvn.localRepository")));
        command.addAll(List.of(properties));
        Path output = work.resolve(log + "-build.log");
        Process p = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        if (!p.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + BUILD_TIMEOUT_MINUTES
                    + " minutes\n" + Files.readString(output, StandardCharsets.UTF_8));
        }
        return new Build(command, p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    private static List<String> pluginNames(Path tree) throws IOException {
        try (Stream<Path> jars = Files.list(tree.resolve("plugins"))) {
            return jars.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar"))
                    .map(n -> n.replaceFirst("-\\d.*\\.jar$", "")).sorted().toList();
        }
    }

    /** Every file of the tree (its path relative to it) with its SHA-256, and every directory. */
    private static Map<String, String> digests(Path tree) throws IOException, NoSuchAlgorithmException {
        Map<String, String> digests = new TreeMap<>();
        List<Path> paths;
        try (Stream<Path> s = Files.walk(tree)) {
            paths = s.toList();
        }
        for (Path p : paths) {
            String relative = tree.relativize(p).toString();
            if (Files.isDirectory(p)) {
                digests.put(relative + "/", "");
                continue;
            }
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            try (InputStream in = Files.newInputStream(p)) {
                sha.update(in.readAllBytes());
            }
            digests.put(relative, HexFormat.of().formatHex(sha.digest()) + " " + Files.getLastModifiedTime(p));
        }
        return digests;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
