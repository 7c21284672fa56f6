package io.kubelix.junit;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;

/**
 * Starts and stops servers one after another in this JVM, printing each start's time and the
 * process CPU time it took, for docs/benchmarks.md ("kubelix-junit start-up"). Not a test.
 */
public final class StartLoop {
    private StartLoop() {
    }

    public static void main(String[] args) {
        int starts = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int i = 1; i <= starts; i++) {
            long cpu = os.getProcessCpuTime();
            try (KubelixServer server = KubelixServer.start()) {
                System.out.printf("start %d: %d ms, cpu %d ms, load average %.1f%n", i,
                        server.startupTime().toMillis(), (os.getProcessCpuTime() - cpu) / 1_000_000,
                        os.getSystemLoadAverage());
            }
        }
        System.exit(0);
    }
}
