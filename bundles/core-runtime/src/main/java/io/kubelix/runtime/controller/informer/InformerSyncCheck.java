package io.kubelix.runtime.controller.informer;

import io.kubelix.api.server.HealthChecker;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.List;

/**
 * kube-apiserver's {@code informer-sync} readiness check: passes when every informer of the server
 * (its controllers' and the plugins') whose resource is served has listed it. The garbage collector
 * and the namespace controller follow every served resource, so this is the served resources'
 * own check: each can be read from its storage, and the server's view of it is complete. A resource
 * that a plugin starts serving fails it until its informer has listed it.
 */
@Component(service = HealthChecker.class, property = HealthChecker.ENDPOINTS_PROPERTY + "=readyz")
public final class InformerSyncCheck implements HealthChecker {
    /** How many unsynced informers a failure names. */
    private static final int NAMED = 5;

    private final InformerFactory informers;

    @Activate
    public InformerSyncCheck(@Reference InformerFactory informers) {
        this.informers = informers;
    }

    @Override
    public String name() {
        return "informer-sync";
    }

    @Override
    public void check() {
        List<String> waiting = informers.unsynced();
        if (!waiting.isEmpty()) {
            throw new IllegalStateException(waiting.size() + " informers not synced yet: "
                    + String.join(", ", waiting.subList(0, Math.min(NAMED, waiting.size())))
                    + (waiting.size() > NAMED ? ", ..." : ""));
        }
    }
}
