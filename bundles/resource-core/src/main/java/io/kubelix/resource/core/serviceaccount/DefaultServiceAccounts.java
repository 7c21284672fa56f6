package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.namespace.NamespacePhase;
import io.kubelix.resource.core.namespace.NamespacedObjectEvents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * kube-controller-manager's service account controller, run by this plugin: every namespace that
 * is not being deleted has a service account named {@code default}, created soon after the
 * namespace and again if it is deleted. Pods name it when they name none, and
 * {@code kubectl create token default} needs it.
 *
 * <p>As kube's, it is driven by the shared informers: a namespace added or changed, or a
 * {@code default} service account deleted, queues the namespace; a worker creates what is missing
 * through this plugin's Store, and a failed creation is retried with the queue's back-off.
 */
public final class DefaultServiceAccounts {
    static final String NAME = "default";
    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    static final GroupVersionResource SERVICE_ACCOUNTS = new GroupVersionResource("", "v1", "serviceaccounts");

    private static final Logger LOG = LoggerFactory.getLogger(DefaultServiceAccounts.class);

    private final StandardStorage serviceAccounts;
    private final SharedIndexInformer namespaceInformer;
    private final SharedIndexInformer serviceAccountInformer;
    private final SharedInformerFactory informers;
    private final RateLimitingQueue<String> queue;
    private Workers workers;
    private List<ResourceEventHandlerRegistration> registrations = List.of();

    public DefaultServiceAccounts(StandardStorage serviceAccounts, SharedInformerFactory informers) {
        this.serviceAccounts = serviceAccounts;
        this.informers = informers;
        this.namespaceInformer = informers.forResource(NAMESPACES);
        this.serviceAccountInformer = informers.forResource(SERVICE_ACCOUNTS);
        this.queue = informers.newRateLimitingQueue("serviceaccount-controller");
    }

    public synchronized void start() {
        registrations = List.of(
                namespaceInformer.addEventHandler(NamespacedObjectEvents.namespaces(queue, ns -> true)),
                serviceAccountInformer.addEventHandler(NamespacedObjectEvents.objectNamed(queue, NAME, false)));
        workers = informers.runWorkers("serviceaccount-controller", queue, 1, this::sync);
    }

    /** Removes the handlers, lets the worker finish what is queued, and ends it. */
    public synchronized void stop() {
        registrations.forEach(ResourceEventHandlerRegistration::close);
        if (workers != null) {
            workers.stop();
        }
    }

    /** Creates {@code default} in the namespace unless it is there, or the namespace is gone or terminating. */
    boolean sync(String namespace) {
        ObjectNode ns = namespaceInformer.lister().get(namespace).orElse(null);
        if (ns == null || NamespacePhase.terminating(ns)
                || serviceAccountInformer.lister().byNamespace(namespace).get(NAME).isPresent()) {
            return false;
        }
        Unstructured sa = Unstructured.of("v1", "ServiceAccount");
        sa.metadata().name(NAME);
        try {
            serviceAccounts.create(RequestContext.system(namespace), sa.object(), CreateOptions.DEFAULT);
            LOG.info("created service account {}/{}", namespace, NAME);
            return true;
        } catch (StatusException e) {
            if (!NamespacedObjectEvents.moot(e)) {
                throw e;
            }
            return false;
        }
    }
}
