package io.kubelix.runtime.audit;

import io.kubelix.runtime.metrics.AuditMetrics;

import java.io.IOException;
import java.util.List;

/**
 * kube's log backend ({@code plugin/pkg/audit/log}): each event as one line of the chosen format,
 * written whole to the file (rotated) or to standard output.
 */
public final class LogBackend implements AuditBackend {
    static final String PLUGIN = "log";

    /** Where lines go; each write is one whole line. */
    public interface Output extends AutoCloseable {
        void write(byte[] line) throws IOException;

        @Override
        void close() throws IOException;
    }

    private final Output out;
    private final EventFormat format;
    private final AuditMetrics metrics;

    public LogBackend(Output out, EventFormat format, AuditMetrics metrics) {
        this.out = out;
        this.format = format;
        this.metrics = metrics;
    }

    @Override
    public boolean processEvents(List<Event> events) {
        boolean ok = true;
        for (Event ev : events) {
            try {
                out.write(format.line(ev));
            } catch (IOException | RuntimeException e) {
                metrics.pluginError(PLUGIN, e.toString(), List.of(ev), EventFormat::legacyString);
                ok = false;
            }
        }
        return ok;
    }

    @Override
    public void shutdown() {
        try {
            out.close();
        } catch (IOException e) {
            metrics.pluginError(PLUGIN, "closing the audit log: " + e, List.of(), EventFormat::legacyString);
        }
    }

    @Override
    public String toString() {
        return "log(" + format + ")";
    }

    /** Standard output ({@code --audit-log-path=-}), written line by line and never closed. */
    public static Output stdout() {
        java.io.FileOutputStream stdout = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        return new Output() {
            @Override
            public synchronized void write(byte[] line) throws IOException {
                stdout.write(line);
            }

            @Override
            public void close() {
            }
        };
    }

    /** The rotated file. */
    public static Output file(RotatingFile file) {
        return new Output() {
            @Override
            public void write(byte[] line) throws IOException {
                file.write(line);
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }
}
