package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.server.PostStartHook;
import io.kubelix.runtime.controller.QueueWorkers;
import io.kubelix.runtime.controller.ServedObjects;
import io.kubelix.runtime.controller.ServedResources;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.controller.workqueue.WorkQueue;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's {@code start-system-namespaces-controller}: {@code default}, {@code kube-system},
 * {@code kube-public} and {@code kube-node-lease} exist, and one that is deleted is created again.
 * Driven by the namespaces informer (a deletion of one of them), and by the served resources (the
 * namespaces' plugin arriving); the hook completes once all four exist.
 */
@Component(service = PostStartHook.class)
public final class SystemNamespacesController implements PostStartHook {
    static final List<String> NAMES = List.of("default", "kube-system", "kube-public", "kube-node-lease");
    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final Logger LOG = LoggerFactory.getLogger(SystemNamespacesController.class);

    private final ServedObjects objects;
    private final SharedIndexInformer namespaces;
    private final WorkQueue<String> queue = WorkQueue.withDefaultRateLimiter("system-namespaces-controller");
    private final QueueWorkers<String> workers;
    private final ResourceEventHandlerRegistration registration;
    private final Runnable unsubscribe;
    /** The names known to exist; guarded by this. */
    private final Set<String> existing = new HashSet<>();

    @Activate
    public SystemNamespacesController(@Reference InformerFactory informers, @Reference ServedResources served) {
        this.objects = new ServedObjects(served);
        this.namespaces = informers.forResource(NAMESPACES);
        this.workers = new QueueWorkers<>("system-namespaces-controller", queue, 1, this::sync);
        this.registration = namespaces.addEventHandler(new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
            }

            @Override
            public void onDelete(ObjectNode obj) {
                String name = obj.path("metadata").path("name").asText();
                if (NAMES.contains(name)) {
                    LOG.info("system namespace {} was deleted; creating it again", name);
                    forget(name);
                    queue.add(name);
                }
            }
        });
        // A namespaces storage that appears (its plugin started or was updated) may find them missing.
        this.unsubscribe = served.onChange(() -> {
            if (objects.served(NAMESPACES)) {
                NAMES.forEach(queue::add);
            }
        });
        NAMES.forEach(queue::add);
        workers.start();
    }

    @Deactivate
    void deactivate() {
        unsubscribe.run();
        registration.close();
        workers.stop();
    }

    @Override
    public String name() {
        return "start-system-namespaces-controller";
    }

    /** Waits until every system namespace exists. */
    @Override
    public synchronized void run() throws InterruptedException {
        while (!existing.containsAll(NAMES)) {
            wait();
        }
    }

    private void sync(String name) {
        if (!objects.served(NAMESPACES)) {
            // Not a failure: the namespaces' plugin is not there yet, and its arrival queues every name.
            LOG.debug("system namespace {} waits for namespaces to be served", name);
            return;
        }
        if (namespaces.lister().get(name).isEmpty()) {
            Unstructured ns = Unstructured.of("v1", "Namespace");
            ns.metadata().name(name);
            try {
                objects.create(NAMESPACES, ns.object());
                LOG.info("created system namespace {}", name);
            } catch (StatusException e) {
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
            }
        }
        synchronized (this) {
            existing.add(name);
            notifyAll();
        }
    }

    private synchronized void forget(String name) {
        existing.remove(name);
    }
}
