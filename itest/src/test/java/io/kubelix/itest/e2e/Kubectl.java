package io.kubelix.itest.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real kubectl against the server: {@code KUBECONFIG} is the admin kubeconfig of the data
 * directory and {@code HOME} a private folder, so discovery caches are never shared with other runs.
 */
final class Kubectl {
    private static final long TIMEOUT_SECONDS = 60;

    private final String executable;
    private final Path kubeconfig;
    private final Path home;
    /** Further environment variables of every run, such as {@code EDITOR} for {@code kubectl edit}. */
    private final Map<String, String> environment;

    Kubectl(String executable, Path kubeconfig, Path home) {
        this(executable, kubeconfig, home, Map.of());
    }

    private Kubectl(String executable, Path kubeconfig, Path home, Map<String, String> environment) {
        this.executable = executable;
        this.kubeconfig = kubeconfig;
        this.home = home;
        this.environment = Map.copyOf(environment);
    }

    /** The same kubectl (kubeconfig and HOME) with {@code environment} added to every run. */
    Kubectl withEnvironment(Map<String, String> environment) {
        return new Kubectl(executable, kubeconfig, home, environment);
    }

    /** What one kubectl run printed and how it ended. */
    record Result(List<String> command, int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return String.join(" ", command) + " -> exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    Result run(String... args) throws IOException, InterruptedException {
        List<String> command = command(args);
        Path out = Files.createTempFile(home, "kubectl", ".out");
        Path err = Files.createTempFile(home, "kubectl", ".err");
        Process p = builder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + "s");
        }
        Result r = new Result(command, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    /** Runs and asserts exit code 0. */
    Result ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        if (r.exitCode() != 0) {
            throw new AssertionError("kubectl failed: " + r);
        }
        return r;
    }

    /** Starts a long-running kubectl (such as a watch) writing stdout and stderr to {@code output}. */
    Process background(Path output, String... args) throws IOException {
        return builder(command(args)).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>();
        command.add(executable);
        command.addAll(List.of(args));
        return command;
    }

    private ProcessBuilder builder(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile());
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.environment().put("HOME", home.toString());
        pb.environment().putAll(environment);
        return pb;
    }
}
