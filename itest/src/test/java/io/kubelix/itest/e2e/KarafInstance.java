package io.kubelix.itest.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private copy of a stock Karaf ({@code kubelix.itest.karaf}) configured as a user would: Kubelix's
 * features repository added in {@code etc/org.apache.karaf.features.cfg}, Maven lookups that find
 * Kubelix's bundles in {@code kubelix.itest.karaf.repository} and the libraries in the local
 * repository, and the API server's port in {@code etc/io.kubelix.apiserver.cfg}. SSH, RMI and the
 * API server listen on free loopback ports. Started with {@code bin/karaf daemon}, so the process
 * is Karaf's own JVM, and stopped by its PID only.
 */
final class KarafInstance implements AutoCloseable {
    private static final long CLIENT_TIMEOUT_SECONDS = 120;

    private final Path home;
    private final Path work;
    private final int sshPort;
    private final int securePort;
    private Process process;
    private int starts;
    private Thread shutdownHook;

    private KarafInstance(Path home, Path work, int sshPort, int securePort) {
        this.home = home;
        this.work = work;
        this.sshPort = sshPort;
        this.securePort = securePort;
    }

    /** Copies the stock Karaf under {@code work} and configures it; nothing is started. */
    static KarafInstance prepare(Path work, String featuresUrl) throws IOException {
        Path stock = Path.of(KubelixServer.property("kubelix.itest.karaf"));
        if (!Files.isRegularFile(stock.resolve("bin").resolve("karaf"))) {
            throw new IllegalStateException(stock + "/bin/karaf is missing: run the itests with mvn verify, which unpacks Karaf");
        }
        Path home = work.resolve("karaf");
        KubelixServer.copyTree(stock, home);
        KarafInstance karaf = new KarafInstance(home, work, KubelixServer.freePort(), KubelixServer.freePort());
        Path etc = home.resolve("etc");
        // 1. The features repository, as a user adds it once for every start.
        replaceLine(etc.resolve("org.apache.karaf.features.cfg"), "featuresRepositories = \\",
                "featuresRepositories = " + featuresUrl + ", \\");
        // 2. Kubelix's own bundles from the build's repository layout, the libraries from the local repository.
        replaceLine(etc.resolve("org.ops4j.pax.url.mvn.cfg"), "org.ops4j.pax.url.mvn.defaultRepositories=\\",
                "org.ops4j.pax.url.mvn.defaultRepositories="
                        + Path.of(KubelixServer.property("kubelix.itest.karaf.repository")).toUri() + "@id=kubelix@snapshots, "
                        + Path.of(KubelixServer.property("kubelix.itest.maven.local-repository")).toUri() + "@id=local@snapshots, \\");
        // 3. Free loopback ports for SSH (the client's way in, with the karaf user enabled) and JMX's RMI.
        replaceLine(etc.resolve("org.apache.karaf.shell.cfg"), "sshPort = 8101", "sshPort = " + karaf.sshPort);
        replaceLine(etc.resolve("org.apache.karaf.shell.cfg"), "sshHost = 0.0.0.0", "sshHost = 127.0.0.1");
        replaceLine(etc.resolve("org.apache.karaf.management.cfg"), "rmiRegistryPort = 1099",
                "rmiRegistryPort = " + KubelixServer.freePort());
        replaceLine(etc.resolve("org.apache.karaf.management.cfg"), "rmiServerPort = 44444",
                "rmiServerPort = " + KubelixServer.freePort());
        replaceLine(etc.resolve("users.properties"), "#karaf = karaf,_g_:admingroup", "karaf = karaf,_g_:admingroup");
        replaceLine(etc.resolve("users.properties"), "#_g_\\:admingroup = group,admin,manager,viewer,systembundles,ssh",
                "_g_\\:admingroup = group,admin,manager,viewer,systembundles,ssh");
        // 4. Only a free port for the API server, as Karaf configures a component: its ConfigAdmin PID in etc/.
        //    The data directory (data/kubelix) and the SQLite storage are Kubelix's defaults in Karaf.
        Files.writeString(etc.resolve("io.kubelix.apiserver.cfg"), "secure-port = " + karaf.securePort + "\n",
                StandardCharsets.UTF_8);
        return karaf;
    }

    /** Karaf's data directory, where Kubelix keeps its own under {@code kubelix/}. */
    Path dataDirectory() {
        return home.resolve("data");
    }

    /** The admin kubeconfig Kubelix writes in its data directory. */
    Path kubeconfig() {
        return dataDirectory().resolve("kubelix").resolve("admin.kubeconfig");
    }

    int securePort() {
        return securePort;
    }

    /** Starts Karaf in the background; {@link #client} works once its SSH server listens. */
    void start() throws IOException {
        starts++;
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", home.resolve("bin").resolve("karaf").toString(), "daemon")
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("karaf-" + starts + ".out").toFile());
        pb.environment().remove("JAVA_OPTS");
        process = pb.start();
        Process started = process;
        shutdownHook = new Thread(started::destroy, "karaf-stopper");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        System.out.println("karaf started: pid " + process.pid() + ", ssh port " + sshPort + ", kubelix port " + securePort);
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Runs a Karaf console command through {@code bin/client} (SSH as the karaf user, the command on
     * its standard input in batch mode), retrying while the SSH server is not up yet; returns what
     * it printed. A command that fails makes the client print {@code Error executing command}.
     */
    String client(String command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("/bin/sh", home.resolve("bin").resolve("client").toString(),
                "-a", Integer.toString(sshPort), "-u", "karaf", "-p", "karaf", "-r", "60", "-d", "2", "-b"));
        Path in = Files.writeString(Files.createTempFile(work, "client", ".in"), command + "\n");
        Path out = Files.createTempFile(work, "client", ".out");
        ProcessBuilder pb = new ProcessBuilder(args).directory(home.toFile()).redirectErrorStream(true)
                .redirectInput(in.toFile()).redirectOutput(out.toFile());
        // The client keeps the server's host key in ~/.sshkaraf: a private home keeps it out of the user's.
        pb.environment().put("JAVA_OPTS", "-Duser.home=" + work.resolve("home"));
        Process p = pb.start();
        if (!p.waitFor(CLIENT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/client " + command + " did not finish within " + CLIENT_TIMEOUT_SECONDS + "s\n" + log());
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0 || output.contains("Error executing command")) {
            throw new AssertionError("bin/client " + command + " exited with " + p.exitValue() + ":\n" + output + "\n" + log());
        }
        return output;
    }

    /** SIGTERM to Karaf's JVM (its shutdown hook stops the framework), SIGKILL only if it hangs. */
    void stop() throws InterruptedException {
        if (shutdownHook != null) {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
            shutdownHook = null;
        }
        KubelixServer.terminate(process, "karaf", 60);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** The end of Karaf's log, for failure messages. */
    String log() {
        Path log = dataDirectory().resolve("log").resolve("karaf.log");
        try {
            List<String> lines = Files.isRegularFile(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
            return "--- " + log + " (last 80 lines) ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private static void replaceLine(Path file, String line, String replacement) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(text.lines().toList());
        int i = lines.indexOf(line);
        if (i < 0) {
            throw new IllegalStateException(file + " has no line \"" + line + "\": is this the Karaf version the test expects?");
        }
        lines.set(i, replacement);
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    }
}
