package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.server.ServedGroupVersions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-aggregator's autoregistration (autoregister and crdregistration controllers): a local
 * APIService (no {@code spec.service}) for every group version the server serves itself, with
 * kube's priorities for kube's groups and those of CRDs (1000, 100) for the others, labelled
 * {@code kube-aggregator.kubernetes.io/automanaged}; created when a plugin or CRD starts serving a
 * group version, deleted once it has stopped for {@link #DELETE_GRACE}, put back when deleted. An
 * APIService of the same name that was not made here (a user's, pointing at a service) is left alone.
 */
final class AutoRegistrationController {
    static final String AUTOMANAGED = "kube-aggregator.kubernetes.io/automanaged";
    private static final String KEY = "local-apiservices";
    /**
     * How long a group version must be gone before its APIService is: while the server starts, its
     * plugins install their groups one by one, and those of the last start must not flap meanwhile.
     */
    static final Duration DELETE_GRACE = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(AutoRegistrationController.class);

    private final ServedGroupVersions served;
    private final SharedIndexInformer apiServices;
    private final StandardStorage store;
    private final RateLimitingQueue<String> queue;
    private final Runnable unregister;
    private final ResourceEventHandlerRegistration registration;
    private final Workers workers;
    /** When each managed APIService was first seen without its group version served; worker thread only. */
    private final Map<String, Long> missingSince = new HashMap<>();

    AutoRegistrationController(SharedInformerFactory informers, ServedGroupVersions served,
                               SharedIndexInformer apiServices, StandardStorage store) {
        this.served = served;
        this.apiServices = apiServices;
        this.store = store;
        this.queue = informers.newRateLimitingQueue("autoregister");
        this.unregister = served.onChange(() -> queue.add(KEY));
        this.registration = apiServices.addEventHandler(new EnqueueHandler(queue, o -> List.of(KEY)));
        this.workers = informers.runWorkers("autoregister", queue, 1, key -> sync());
        queue.add(KEY);
    }

    void stop() {
        unregister.run();
        registration.close();
        workers.stop();
    }

    /** The local APIServices the server's group versions call for, by name. */
    static Map<String, ObjectNode> desired(List<GroupVersion> groupVersions) {
        Map<String, ObjectNode> desired = new LinkedHashMap<>();
        for (GroupVersion gv : groupVersions) {
            APIServicePriorities.Priority p = APIServicePriorities.of(gv);
            ObjectNode a = JsonNodeFactory.instance.objectNode();
            a.put("apiVersion", APIServices.GROUP + "/" + APIServices.VERSION);
            a.put("kind", "APIService");
            ObjectNode meta = a.putObject("metadata");
            meta.put("name", gv.version() + "." + gv.group());
            meta.putObject("labels").put(AUTOMANAGED, p.builtIn() ? "onstart" : "true");
            ObjectNode spec = a.putObject("spec");
            spec.put("group", gv.group());
            spec.put("version", gv.version());
            spec.put("groupPriorityMinimum", p.group());
            spec.put("versionPriority", p.version());
            desired.put(gv.version() + "." + gv.group(), a);
        }
        return desired;
    }

    void sync() {
        // Expected while the server starts (storage not up yet): retried quietly, warned about only if it lasts.
        if (!apiServices.hasSynced()) {
            throw StatusException.serviceUnavailable("the APIService informer has not synced yet");
        }
        RequestContext ctx = RequestContext.system("");
        Map<String, ObjectNode> desired = desired(served.groupVersions());
        for (ObjectNode want : desired.values()) {
            String name = want.path("metadata").path("name").asText();
            ObjectNode have = apiServices.lister().get(name).orElse(null);
            try {
                if (have == null) {
                    store.create(ctx, want.deepCopy(), CreateOptions.DEFAULT);
                    LOG.info("registered local APIService {}", name);
                } else if (managed(have) && !have.path("spec").equals(want.path("spec"))) {
                    store.update(ctx, name, (c, current) -> {
                        ObjectNode updated = current.deepCopy();
                        updated.set("spec", want.get("spec").deepCopy());
                        return updated;
                    }, UpdateOptions.DEFAULT);
                }
            } catch (StatusException e) {
                if (e.code() != 409) {
                    throw e;
                }
            }
        }
        missingSince.keySet().retainAll(apiServices.lister().list().stream()
                .map(a -> a.path("metadata").path("name").asText()).filter(n -> !desired.containsKey(n)).toList());
        long now = System.nanoTime();
        for (ObjectNode have : apiServices.lister().list()) {
            String name = have.path("metadata").path("name").asText();
            if (managed(have) && !desired.containsKey(name)) {
                long since = missingSince.computeIfAbsent(name, n -> now);
                if (now - since < DELETE_GRACE.toNanos()) {
                    queue.addAfter(KEY, DELETE_GRACE);
                    continue;
                }
                missingSince.remove(name);
                try {
                    store.delete(ctx, name, DeleteOptions.DEFAULT);
                    LOG.info("removed local APIService {}: its group version is no longer served", name);
                } catch (StatusException e) {
                    if (e.code() != 404) {
                        throw e;
                    }
                }
            }
        }
    }

    /** Made here: local and labelled automanaged. */
    private static boolean managed(JsonNode apiService) {
        return APIServices.service((ObjectNode) apiService) == null
                && apiService.path("metadata").path("labels").has(AUTOMANAGED);
    }
}
