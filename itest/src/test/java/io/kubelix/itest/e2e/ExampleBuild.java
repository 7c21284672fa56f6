package io.kubelix.itest.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Builds one of {@code examples/} as a user would: {@code mvn -B -q -o package} in a copy of the
 * project, with the Maven that runs this build. The examples depend on
 * {@code io.kubelix:core-api}, which {@code mvn verify} does not install, so
 * {@link #installCoreApi} first puts this build's core-api jar and poms into the local repository,
 * at the paths and with the content {@code mvn install} would give them.
 */
final class ExampleBuild {
    private static final long TIMEOUT_MINUTES = 5;

    private ExampleBuild() {
    }

    /**
     * Copies {@code core-api.jar}, core-api's pom and the parent pom (which the dependency's pom
     * names) into {@code localRepository}, as {@code mvn install} of those two modules would.
     */
    static void installCoreApi(Path localRepository, Path root, Path coreApiJar, String version) throws IOException {
        Path parent = localRepository.resolve("io/kubelix/kubelix-parent").resolve(version);
        Path api = localRepository.resolve("io/kubelix/core-api").resolve(version);
        Files.createDirectories(parent);
        Files.createDirectories(api);
        copy(root.resolve("pom.xml"), parent.resolve("kubelix-parent-" + version + ".pom"));
        copy(root.resolve("bundles/core-api/pom.xml"), api.resolve("core-api-" + version + ".pom"));
        copyJar(coreApiJar, api.resolve("core-api-" + version + ".jar"));
    }

    /**
     * Copies a jar and reads it back whole; a jar that another build is rewriting at that moment
     * is copied again, so the examples never compile against a torn one.
     */
    private static void copyJar(Path from, Path to) throws IOException {
        for (int attempt = 1; ; attempt++) {
            copy(from, to);
            try (ZipFile zip = new ZipFile(to.toFile())) {
                for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                    zip.getInputStream(e).readAllBytes();
                }
                return;
            } catch (IOException torn) {
                if (attempt == 5) {
                    throw new IOException(from + " is not a readable jar", torn);
                }
                try {
                    Thread.sleep(2_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted copying " + from, e);
                }
            }
        }
    }

    /**
     * Builds the example {@code name} in a copy under {@code work} and returns its bundle jar
     * ({@code target/<artifactId>-<version>.jar}, the only jar there).
     */
    static Path build(Path examples, String name, Path work, Path localRepository, String kubelixVersion)
            throws IOException, InterruptedException {
        Path project = work.resolve(name);
        copyTree(examples.resolve(name), project);
        Path log = work.resolve(name + "-build.log");
        List<String> command = new ArrayList<>(List.of(maven(), "-B", "-q", "-o", "package",
                "-Dmaven.repo.local=" + localRepository, "-Dkubelix.version=" + kubelixVersion));
        Process p = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " in " + project + " did not finish within "
                    + TIMEOUT_MINUTES + " minutes\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " in " + project + " failed with " + p.exitValue()
                    + "\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        try (Stream<Path> jars = Files.list(project.resolve("target"))) {
            List<Path> found = jars.filter(j -> j.getFileName().toString().endsWith(".jar")).toList();
            if (found.size() != 1) {
                throw new AssertionError("expected one jar in " + project.resolve("target") + ", found " + found);
            }
            return found.get(0);
        }
    }

    /** The {@code mvn} of the Maven running this build ({@code maven.home}), else the one on the PATH. */
    static String maven() {
        String home = System.getProperty("kubelix.itest.maven-home", "");
        if (!home.isEmpty()) {
            Path mvn = Path.of(home, "bin", "mvn");
            if (Files.isExecutable(mvn)) {
                return mvn.toString();
            }
        }
        return "mvn";
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isRegularFile(from)) {
            throw new IllegalStateException(from + " does not exist: build the reactor first");
        }
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        List<Path> paths;
        try (Stream<Path> s = Files.walk(from)) {
            // a target/ left by someone's own build of the example is not copied
            paths = s.filter(p -> !from.relativize(p).startsWith("target")).toList();
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
}
