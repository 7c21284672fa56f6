package io.kubelix.runtime.controller.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.EventHandlers;
import io.kubelix.runtime.controller.FollowedResources;
import io.kubelix.runtime.controller.QueueWorkers;
import io.kubelix.runtime.controller.ServedResources;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.controller.workqueue.WorkQueue;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * kube-controller-manager's namespace controller, in the server: a namespace being deleted
 * ({@code deletionTimestamp} set) that still has the {@code kubernetes} finalizer is emptied
 * resource by resource ({@link NamespacedResourcesDeleter}), its status conditions saying how far
 * it got as kube's do, and once nothing is left the finalizer is taken out through
 * {@code namespaces/finalize}, which removes the namespace when no other finalizer remains.
 *
 * <p>Event-driven, nothing polls: the namespaces informer queues a namespace when it is marked
 * for deletion or changes, and the informers of every served namespaced resource queue a
 * terminating namespace whenever one of its objects changes or goes (an object's finalizer
 * removed, a graceful deletion completed), so a namespace held by content is looked at again
 * exactly when that content moves. Resources that come or go (a plugin, an update) get their
 * informer handlers added or removed, and queue every terminating namespace.
 */
@Component(service = {})
public final class NamespaceController {
    static final String FINALIZER = "kubernetes";
    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final Logger LOG = LoggerFactory.getLogger(NamespaceController.class);

    private final ServedResources served;
    private final SharedIndexInformer namespaces;
    private final NamespacedResourcesDeleter deleter;
    private final WorkQueue<String> queue = WorkQueue.withDefaultRateLimiter("namespace-controller");
    private final QueueWorkers<String> workers;
    private final ResourceEventHandlerRegistration namespaceRegistration;
    /** Every served namespaced resource the controller can empty, one version per storage. */
    private final FollowedResources content;

    @Activate
    public NamespaceController(@Reference InformerFactory informers, @Reference ServedResources served) {
        this(informers, served, Clock.systemUTC(), 2);
    }

    NamespaceController(InformerFactory informers, ServedResources served, Clock clock, int workers) {
        this.served = served;
        this.namespaces = informers.forResource(NAMESPACES);
        this.deleter = new NamespacedResourcesDeleter(served, clock);
        this.workers = new QueueWorkers<>("namespace-controller", queue, workers, this::sync);
        this.namespaceRegistration = namespaces.addEventHandler(EventHandlers.onAnyChange(this::enqueueIfDeleting, false));
        this.content = new FollowedResources(served, informers,
                s -> s.namespaced() && NamespacedResourcesDeleter.deletable(s),
                r -> EventHandlers.onAnyChange(this::contentChanged, true), r -> { }, this::enqueueTerminating);
        content.start();
        this.workers.start();
    }

    @Deactivate
    public void deactivate() {
        content.stop();
        namespaceRegistration.close();
        workers.stop();
    }

    private void enqueueIfDeleting(ObjectNode ns) {
        if (deleting(ns) && hasFinalizer(ns)) {
            queue.add(ns.path("metadata").path("name").asText());
        }
    }

    /** Queues every terminating namespace: a resource that appeared may hold some of its content. */
    private void enqueueTerminating() {
        for (ObjectNode ns : namespaces.lister().list()) {
            enqueueIfDeleting(ns);
        }
    }

    /** Queues the namespace of an object that changed or went, when that namespace is being deleted. */
    private void contentChanged(ObjectNode obj) {
        String namespace = obj.path("metadata").path("namespace").asText("");
        if (!namespace.isEmpty()) {
            namespaces.lister().get(namespace).ifPresent(this::enqueueIfDeleting);
        }
    }

    /** kube's syncNamespaceFromKey: empties and finalizes one namespace being deleted. */
    private void sync(String name) {
        // Read from storage, as kube's deleter does: the cache may still hold a namespace that was
        // finalized and recreated meanwhile, whose new content must not be touched.
        ObjectNode ns = deleter.namespace(name);
        if (ns == null || !deleting(ns) || !hasFinalizer(ns)) {
            return;
        }
        String uid = ns.path("metadata").path("uid").asText();
        NamespacedResourcesDeleter.Result result = deleter.deleteAllContent(name);
        if (!deleter.updateConditions(name, uid, result)) {
            return; // replaced meanwhile: the new namespace's events say what to do
        }
        if (!result.done()) {
            LOG.info("namespace {}: {}", name, result.describe());
            if (!result.errors().isEmpty()) {
                throw StatusException.internalError("namespace " + name + ": " + String.join("; ", result.errors()), null);
            }
            // What remains is held by finalizers or graceful deletion: its next change queues the namespace.
            return;
        }
        finalizeNamespace(name, uid);
    }

    /** Takes the {@code kubernetes} finalizer out of the namespace {@code uid}, not of one recreated under its name. */
    private void finalizeNamespace(String name, String uid) {
        Updater finalizer = deleter.finalizer();
        boolean[] replaced = {false};
        try {
            finalizer.update(RequestContext.system(""), name, (ctx, current) -> {
                if (!uid.equals(current.path("metadata").path("uid").asText())) {
                    replaced[0] = true;
                    return current;
                }
                return withoutFinalizer(current);
            }, UpdateOptions.DEFAULT);
            if (!replaced[0]) {
                LOG.info("namespace {}: content deleted, namespace finalized", name);
            }
        } catch (StatusException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
        }
    }

    static boolean deleting(ObjectNode ns) {
        JsonNode ts = ns.path("metadata").get("deletionTimestamp");
        return ts != null && !ts.isNull();
    }

    static boolean hasFinalizer(ObjectNode ns) {
        for (JsonNode f : ns.path("spec").path("finalizers")) {
            if (FINALIZER.equals(f.asText())) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode withoutFinalizer(ObjectNode current) {
        ObjectNode next = current.deepCopy();
        JsonNode finalizers = next.path("spec").get("finalizers");
        if (finalizers instanceof ArrayNode list) {
            for (int i = list.size() - 1; i >= 0; i--) {
                if (FINALIZER.equals(list.get(i).asText())) {
                    list.remove(i);
                }
            }
        }
        return next;
    }
}
