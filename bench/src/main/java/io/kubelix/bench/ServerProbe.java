package io.kubelix.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What can be seen of a server process on this machine ({@code --server-pid}): heap through
 * {@code jcmd}, resident memory and threads through /proc. Absent tools give "n/a", not a failure.
 */
final class ServerProbe {
    private final String pid;

    ServerProbe(String pid) {
        this.pid = pid;
    }

    /** Heap after a full GC (the live set), as jcmd GC.heap_info prints it; needs the same user as the server. */
    String heapAfterGc() {
        if (pid == null) {
            return "n/a (pass --server-pid)";
        }
        jcmd("GC.run");
        String info = jcmd("GC.heap_info");
        return info == null ? "n/a (jcmd failed)" : info.strip();
    }

    /** The "used" figure of the first heap line of GC.heap_info, in MiB; -1 if unknown. */
    static long usedMiB(String heapInfo) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(heapInfo);
        return m.find() ? Long.parseLong(m.group(1)) / 1024 : -1;
    }

    String procStatus() {
        if (pid == null) {
            return "n/a";
        }
        try {
            List<String> out = new ArrayList<>();
            for (String l : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (l.startsWith("VmRSS") || l.startsWith("Threads")) {
                    out.add(l.replaceAll("\\s+", " "));
                }
            }
            return String.join(", ", out);
        } catch (IOException e) {
            return "n/a (" + e.getMessage() + ")";
        }
    }

    /** CPU seconds (user + system) the server process has used; -1 when unknown. Assumes 100 clock ticks a second. */
    double cpuSeconds() {
        if (pid == null) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** CPU seconds this (client) process has used. */
    static double clientCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /** The machine's 1-minute load average, to show how busy the shared machine was. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "n/a";
        }
    }

    private String jcmd(String command) {
        try {
            Process p = new ProcessBuilder("jcmd", pid, command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            // The first line is "<pid>:".
            int nl = out.indexOf('\n');
            return nl >= 0 ? out.substring(nl + 1) : out;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }
}
