package io.kubelix.apiextensions.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.Crds;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's EstablishingController: a CRD whose names are accepted, and whose custom resources are
 * now served, becomes {@code Established=True} ({@code InitialNamesAccepted}). It is told by the
 * serving side ({@link #queue}) once the CRD's resources are in the route table, so a client that
 * waits for the condition finds them in discovery.
 */
public final class EstablishingController {
    private static final Logger LOG = LoggerFactory.getLogger(EstablishingController.class);
    static final GroupResource CRDS = GroupResource.of(Crds.GROUP, "customresourcedefinitions");

    private final SharedIndexInformer crds;
    private final Updater crdStatus;
    private final QueueWorker<String> worker;

    public EstablishingController(SharedInformerFactory informers, SharedIndexInformer crds, Updater crdStatus) {
        this.crds = crds;
        this.crdStatus = crdStatus;
        this.worker = new QueueWorker<>("crd-establishing", informers.newRateLimitingQueue("crdEstablishing"),
                this::sync).start();
    }

    /** Asks for the CRD {@code name} to be established, now that it is served. */
    public void queue(String name) {
        worker.queue().add(name);
    }

    public void stop() {
        worker.stop();
    }

    void sync(String name) {
        ObjectNode cached = crds.lister().get(name).orElse(null);
        if (cached == null || !Crds.conditionTrue(cached, Crds.NAMES_ACCEPTED) || Crds.conditionTrue(cached, Crds.ESTABLISHED)) {
            return;
        }
        try {
            crdStatus.update(RequestContext.system(""), name, (ctx, current) -> {
                if (current == null) {
                    throw StatusException.notFound(CRDS, name);
                }
                ObjectNode updated = current.deepCopy();
                Crds.setCondition(updated, Crds.ESTABLISHED, "True", "InitialNamesAccepted",
                        "the initial names have been accepted");
                return updated;
            }, new UpdateOptions(false, "kube-apiserver"));
            LOG.info("CRD {} established", name);
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }
}
