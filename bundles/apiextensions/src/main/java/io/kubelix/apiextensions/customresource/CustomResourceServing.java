package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.Crds;
import io.kubelix.apiextensions.controller.Handlers;
import io.kubelix.apiextensions.controller.QueueWorker;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.webhook.ServiceResolver;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Serves the custom resources of the CRDs (the part of kube's crdHandler that keeps the per-CRD
 * storage map): for each API group with CRDs whose names are accepted, one
 * {@link CustomResourceGroupProvider} is registered as a RESTStorageProvider service, so the core
 * API installs its routes, discovery and OpenAPI. When a CRD of the group changes in what is served
 * (versions, names, schema, columns, subresources) or comes or goes, a new provider replaces the
 * group's: registered first, the old one unregistered after, so requests and watches on the
 * unchanged resources go on. Once a CRD is served it is handed to the establishing controller.
 * The services belong to this bundle: when it stops, every custom resource leaves the server with
 * them, and objects stay in storage for its return.
 */
public final class CustomResourceServing {
    private static final Logger LOG = LoggerFactory.getLogger(CustomResourceServing.class);
    private static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    private static final GroupVersionResource ENDPOINT_SLICES = new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");

    private record Served(ServiceRegistration<RESTStorageProvider> registration, CustomResourceGroupProvider provider,
                          JsonNode fingerprint) {
    }

    private final BundleContext context;
    private final SharedIndexInformer crds;
    private final Consumer<String> served;
    private final Map<String, Served> groups = new ConcurrentHashMap<>();
    private final QueueWorker<String> worker;
    private final ResourceEventHandlerRegistration registration;
    /** Where conversion webhooks that name a service are, and the bundle's one mapper for their reviews. */
    private final ServiceResolver services;
    private final ObjectMapper json = new ObjectMapper();

    /**
     * @param served told the name of each CRD whose resources are served and that is not established yet
     */
    public CustomResourceServing(BundleContext context, SharedInformerFactory informers, SharedIndexInformer crds,
                                 Consumer<String> served) {
        this.context = context;
        this.crds = crds;
        this.served = served;
        this.services = new ServiceResolver(informers.forResource(SERVICES).lister(),
                informers.forResource(ENDPOINT_SLICES).lister());
        this.worker = new QueueWorker<>("crd-handler", informers.newRateLimitingQueue("crd-handler"), this::sync).start();
        this.registration = crds.addEventHandler(Handlers.onAny(crd -> worker.queue().add(Crds.group(crd))));
    }

    /** Stops following CRDs and takes every custom resource out of the server. */
    public void stop() {
        registration.close();
        worker.stop();
        synchronized (this) {
            groups.values().forEach(s -> unregister(s.registration()));
            groups.clear();
        }
    }

    /** The Store of the storage version of the CRD {@code name}, or null when it is not served. */
    public StandardStorage storageStore(String name) {
        for (Served s : groups.values()) {
            if (s.provider().crds().containsKey(name)) {
                return s.provider().storageStore(name);
            }
        }
        return null;
    }

    synchronized void sync(String group) {
        Map<String, ObjectNode> serving = new TreeMap<>();
        ObjectNode fingerprint = JsonNodeFactory.instance.objectNode();
        for (ObjectNode crd : crds.lister().list()) {
            if (Crds.group(crd).equals(group) && Crds.conditionTrue(crd, Crds.NAMES_ACCEPTED)
                    && Crds.storageVersion(crd) != null) {
                serving.put(Crds.name(crd), crd.deepCopy());
                fingerprint.set(Crds.name(crd), JsonNodeFactory.instance.arrayNode()
                        .add(crd.path("metadata").path("uid").asText())
                        .add(crd.path("spec"))
                        .add(crd.path("status").path("acceptedNames")));
            }
        }
        Served current = groups.get(group);
        if (serving.isEmpty()) {
            if (current != null) {
                groups.remove(group);
                unregister(current.registration());
                LOG.info("custom resources of {} no longer served", group);
            }
            return;
        }
        if (current == null || !current.fingerprint().equals(fingerprint)) {
            CustomResourceGroupProvider provider = new CustomResourceGroupProvider(group, serving, this::terminating,
                    webhook -> new ConversionWebhook(webhook, services, json));
            Dictionary<String, Object> props = new Hashtable<>();
            props.put("component.name", "apiextensions: " + group);
            ServiceRegistration<RESTStorageProvider> reg = context.registerService(RESTStorageProvider.class, provider, props);
            groups.put(group, new Served(reg, provider, fingerprint));
            if (current != null) {
                unregister(current.registration());
            }
            LOG.info("serving custom resources of {}: {}", group, serving.keySet());
        }
        for (ObjectNode crd : serving.values()) {
            if (!Crds.conditionTrue(crd, Crds.ESTABLISHED)) {
                served.accept(Crds.name(crd));
            }
        }
    }

    private boolean terminating(String name) {
        return crds.lister().get(name)
                .map(crd -> !crd.path("metadata").path("deletionTimestamp").isMissingNode())
                .orElse(false);
    }

    private static void unregister(ServiceRegistration<?> registration) {
        try {
            registration.unregister();
        } catch (IllegalStateException e) {
            // already gone with the bundle
        }
    }
}
