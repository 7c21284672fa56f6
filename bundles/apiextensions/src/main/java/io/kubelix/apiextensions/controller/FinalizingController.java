package io.kubelix.apiextensions.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.Crds;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.Function;

/**
 * kube's CRDFinalizer: a CRD being deleted with the {@code customresourcecleanup.apiextensions.k8s.io}
 * finalizer turns {@code Terminating} ({@code InstanceDeletionInProgress}), has every custom
 * resource of it deleted through its Store (so their own finalizers and the garbage collector are
 * honoured), waits until none is left, and then loses the finalizer, which lets the delete finish.
 * A CRD that was never established has nothing to delete ({@code NeverEstablished}). While objects
 * remain it says why ({@code InstanceDeletionCheck}) and tries again later.
 */
public final class FinalizingController {
    private static final Logger LOG = LoggerFactory.getLogger(FinalizingController.class);
    static final Duration RECHECK = Duration.ofSeconds(5);

    private final SharedIndexInformer crds;
    private final Updater crdStatus;
    /** The Store of a CRD's storage version, by CRD name; null when its resources are not served. */
    private final Function<String, StandardStorage> customResources;
    private final QueueWorker<String> worker;
    private final ResourceEventHandlerRegistration registration;

    public FinalizingController(SharedInformerFactory informers, SharedIndexInformer crds, Updater crdStatus,
                                Function<String, StandardStorage> customResources) {
        this.crds = crds;
        this.crdStatus = crdStatus;
        this.customResources = customResources;
        this.worker = new QueueWorker<>("crd-finalizer", informers.newRateLimitingQueue("crd_finalizer"), this::sync).start();
        this.registration = crds.addEventHandler(Handlers.onAny(crd -> {
            if (deleting(crd)) {
                worker.queue().add(Crds.name(crd));
            }
        }));
    }

    public void stop() {
        registration.close();
        worker.stop();
    }

    private static boolean deleting(JsonNode crd) {
        if (crd.path("metadata").path("deletionTimestamp").isMissingNode()) {
            return false;
        }
        for (JsonNode f : crd.path("metadata").path("finalizers")) {
            if (Crds.CLEANUP_FINALIZER.equals(f.asText())) {
                return true;
            }
        }
        return false;
    }

    void sync(String name) {
        ObjectNode cached = crds.lister().get(name).orElse(null);
        if (cached == null || !deleting(cached)) {
            return;
        }
        writeStatus(name, crd -> Crds.setCondition(crd, Crds.TERMINATING, "True", "InstanceDeletionInProgress",
                "CustomResource deletion is in progress"));
        if (Crds.conditionTrue(cached, Crds.ESTABLISHED)) {
            StandardStorage store = customResources.apply(name);
            if (store == null) {
                throw new IllegalStateException("unable to find a custom resource client for "
                        + cached.path("status").path("acceptedNames").path("plural").asText() + "." + Crds.group(cached));
            }
            RequestContext all = RequestContext.system("");
            try {
                store.deleteCollection(all, DeleteOptions.DEFAULT, ListOptions.recursiveAll());
            } catch (RuntimeException e) {
                writeStatus(name, crd -> Crds.setCondition(crd, Crds.TERMINATING, "True", "InstanceDeletionFailed",
                        "could not issue all deletes: " + e.getMessage()));
                throw e;
            }
            int remaining = store.list(all, ListOptions.recursiveAll()).items().size();
            if (remaining > 0) {
                writeStatus(name, crd -> Crds.setCondition(crd, Crds.TERMINATING, "True", "InstanceDeletionCheck",
                        "could not confirm zero CustomResources remaining: " + remaining + " left"));
                LOG.info("CRD {}: waiting for {} custom resources to go", name, remaining);
                worker.queue().addAfter(name, RECHECK);
                return;
            }
            writeStatus(name, crd -> {
                Crds.setCondition(crd, Crds.TERMINATING, "False", "InstanceDeletionCompleted", "removed all instances");
                removeFinalizer(crd);
            });
        } else {
            writeStatus(name, crd -> {
                Crds.setCondition(crd, Crds.TERMINATING, "False", "NeverEstablished", "resource was never established");
                removeFinalizer(crd);
            });
        }
        LOG.info("CRD {}: custom resources removed; the CRD goes", name);
    }

    private static void removeFinalizer(ObjectNode crd) {
        JsonNode finalizers = crd.path("metadata").path("finalizers");
        if (finalizers instanceof ArrayNode a) {
            for (int i = a.size() - 1; i >= 0; i--) {
                if (Crds.CLEANUP_FINALIZER.equals(a.get(i).asText())) {
                    a.remove(i);
                }
            }
        }
    }

    private void writeStatus(String name, java.util.function.Consumer<ObjectNode> change) {
        try {
            crdStatus.update(RequestContext.system(""), name, (ctx, current) -> {
                if (current == null) {
                    throw StatusException.notFound(EstablishingController.CRDS, name);
                }
                ObjectNode updated = current.deepCopy();
                change.accept(updated);
                return updated;
            }, new UpdateOptions(false, "kube-apiserver"));
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }
}
