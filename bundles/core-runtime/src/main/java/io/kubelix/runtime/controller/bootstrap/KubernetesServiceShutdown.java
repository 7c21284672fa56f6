package io.kubelix.runtime.controller.bootstrap;

import io.kubelix.runtime.server.PreShutdownHook;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * kube's bootstrap-controller pre-shutdown hook: this server's lease and IP leave the
 * {@code kubernetes} Endpoints as the server begins to stop, while the storage plugin still serves
 * (when the controller itself is deactivated, the plugins are gone and the lease could only expire).
 */
@Component(service = PreShutdownHook.class)
public final class KubernetesServiceShutdown implements PreShutdownHook {
    private final KubernetesServiceController controller;

    @Activate
    public KubernetesServiceShutdown(@Reference KubernetesServiceController controller) {
        this.controller = controller;
    }

    @Override
    public String name() {
        return "stop-bootstrap-controller";
    }

    @Override
    public void run() {
        controller.stop();
    }
}
