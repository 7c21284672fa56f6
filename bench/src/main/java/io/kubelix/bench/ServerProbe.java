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
