package io.kubelix.itest.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The openssl command, for tests that make their own certificates. */
final class Openssl {
    private Openssl() {
    }

    /** Runs {@code openssl args...} in {@code dir} and asserts it succeeded. */
    static void run(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), () -> "openssl " + String.join(" ", args) + ": " + out);
    }
}
