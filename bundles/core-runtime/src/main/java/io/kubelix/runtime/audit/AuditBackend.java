package io.kubelix.runtime.audit;

import java.util.List;

/**
 * audit.Backend: where events go. Backends are given events in the order of each request's
 * stages; events are immutable, so a backend may keep them.
 */
public interface AuditBackend {
    /**
     * Sends the events.
     *
     * @return false when they were not recorded and the backend wants the request refused
     *         ({@code blocking-strict}); backends that only report failures return true
     */
    boolean processEvents(List<Event> events);

    /** Sends what is still buffered, then stops; events sent afterwards are dropped as errors. */
    void shutdown();

    /** Several backends, each given every event (audit.Union). */
    static AuditBackend union(List<AuditBackend> backends) {
        if (backends.size() == 1) {
            return backends.get(0);
        }
        List<AuditBackend> all = List.copyOf(backends);
        return new AuditBackend() {
            @Override
            public boolean processEvents(List<Event> events) {
                boolean ok = true;
                for (AuditBackend b : all) {
                    ok &= b.processEvents(events);
                }
                return ok;
            }

            @Override
            public void shutdown() {
                all.forEach(AuditBackend::shutdown);
            }

            @Override
            public String toString() {
                return "union" + all;
            }
        };
    }
}
