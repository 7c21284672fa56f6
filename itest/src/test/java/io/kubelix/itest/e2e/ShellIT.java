package io.kubelix.itest.e2e;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/kubelix shell} against the default distribution: the Gogo commands run in the server
 * over {@code POST /kubelix/shell} with the data directory's admin kubeconfig, one command or a
 * prompt fed from a pipe whose lines share a session; a failing command exits 1; a user who is not
 * an admin is refused with kube's Forbidden.
 */
class ShellIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final long TIMEOUT_SECONDS = 60;

    private static Path work;
    private static KubelixServer server;

    @BeforeAll
    static void start() throws Exception {
        work = KubelixServer.workDirectory("shell");
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
    void kubelixPluginsAndLbRunInTheServer() throws Exception {
        Run plugins = shell("", "kubelix:plugins");
        assertEquals(0, plugins.exitCode(), plugins::toString);
        assertTrue(plugins.stdout().contains("io.kubelix.resource-apps"), plugins::toString);
        assertTrue(plugins.stdout().contains("apps/v1: "), plugins::toString);

        Run lb = shell("", "lb", "-s");
        assertEquals(0, lb.exitCode(), lb::toString);
        assertTrue(lb.stdout().contains("|Active     |") && lb.stdout().contains("io.kubelix.core-runtime"),
                lb::toString);

        Run scr = shell("", "scr:list");
        assertEquals(0, scr.exitCode(), scr::toString);
        assertTrue(scr.stdout().contains("io.kubelix.runtime.shell.ShellEndpoint"), scr::toString);
    }

    @Test
    void aFailingCommandExitsOneWithGogosMessage() throws Exception {
        Run r = shell("", "no-such-command");
        assertEquals(1, r.exitCode(), r::toString);
        assertEquals("gogo: CommandNotFoundException: Command not found: no-such-command\n", r.stdout(), r::toString);
    }

    @Test
    void linesFromAPipeShareOneSessionUntilExit() throws Exception {
        Run r = shell("who = kubelix\nnot-a-command\necho hello $who\nexit\necho after exit\n");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("kubelix\ngogo: CommandNotFoundException: Command not found: not-a-command\nhello kubelix\n",
                r.stdout(), r::toString);
    }

    @Test
    void aUserWhoIsNotAnAdminIsForbidden() throws Exception {
        Path line = Files.writeString(work.resolve("lb.txt"), "lb");
        Kubectl.Result r = server.kubectl(work).run("--as", "alice", "create", "--raw", "/kubelix/shell", "-f",
                line.toString());
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Error from server (Forbidden): forbidden: User \"alice\" cannot post path"
                + " \"/kubelix/shell\""), r::toString);
    }

    record Run(List<String> command, int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return String.join(" ", command) + " -> exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    /** {@code bin/kubelix shell --data-dir <the server's> args...} with {@code input} as its standard input. */
    private static Run shell(String input, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(server.home().resolve("bin/kubelix").toString(), "shell",
                "--data-dir", server.dataDir().toString()));
        command.addAll(List.of(args));
        Path in = Files.createTempFile(work, "shell", ".in");
        Path out = Files.createTempFile(work, "shell", ".out");
        Path err = Files.createTempFile(work, "shell", ".err");
        Files.writeString(in, input);
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile())
                .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("HOME", work.resolve("home").toString());
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + "s");
        }
        return new Run(command, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
