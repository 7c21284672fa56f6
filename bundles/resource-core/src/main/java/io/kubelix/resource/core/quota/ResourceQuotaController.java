package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.quantity.Quantity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's resource quota controller, run by this plugin: a quota's
 * {@code status.hard} is its {@code spec.hard}, and {@code status.used} what the objects of its
 * namespace within its scopes use of each resource it limits (their count, pods' compute
 * resources, claims' storage: see {@link QuotaEvaluator}; pods that have finished hold no compute
 * resources), as the server's informers see them. A quota is synced when it is created or changed, and again
 * whenever an object it counts is created or deleted in its namespace (kube's replenishment), so
 * that what quota admission charged for a create that then failed is given back.
 */
public final class ResourceQuotaController {
    static final GroupVersionResource RESOURCE_QUOTAS = new GroupVersionResource("", "v1", "resourcequotas");
    private static final Duration SYNC_WAIT = Duration.ofSeconds(10);

    private final QuotaStatusWriter status;
    private final SharedInformerFactory informers;
    private final SharedIndexInformer quotas;
    private final RateLimitingQueue<String> queue;
    private Workers workers;
    private final Map<GroupVersionResource, ResourceEventHandlerRegistration> counted = new ConcurrentHashMap<>();
    private ResourceEventHandlerRegistration quotaHandler;

    public ResourceQuotaController(QuotaStatusWriter status, SharedInformerFactory informers) {
        this.status = status;
        this.informers = informers;
        this.quotas = informers.forResource(RESOURCE_QUOTAS);
        this.queue = informers.newRateLimitingQueue("resourcequota-controller");
    }

    public synchronized void start() {
        quotaHandler = quotas.addEventHandler(new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                queue.add(SharedIndexInformer.keyOf(obj));
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                if (!oldObj.path("spec").equals(newObj.path("spec"))
                        || !newObj.path("spec").path("hard").equals(newObj.path("status").path("hard"))) {
                    queue.add(SharedIndexInformer.keyOf(newObj));
                }
            }

            @Override
            public void onDelete(ObjectNode obj) {
            }
        });
        workers = informers.runWorkers("resourcequota-controller", queue, 1, this::sync);
    }

    /** Removes the handlers, lets a running sync finish, and ends the worker. */
    public synchronized void stop() {
        if (quotaHandler != null) {
            quotaHandler.close();
        }
        counted.values().forEach(ResourceEventHandlerRegistration::close);
        counted.clear();
        if (workers != null) {
            workers.stop();
        }
    }

    /** Recounts what the quota limits and writes its status when it changed. */
    void sync(String key) {
        ObjectNode quota = quotas.getByKey(key);
        if (quota == null) {
            return;
        }
        String namespace = quota.path("metadata").path("namespace").asText();
        String name = quota.path("metadata").path("name").asText();
        List<String> hard = new ArrayList<>();
        quota.path("spec").path("hard").fieldNames().forEachRemaining(hard::add);
        List<QuotaScopes.Selector> scopes = QuotaScopes.of(quota);
        Map<String, Quantity> usage = new TreeMap<>();
        for (QuotaEvaluator evaluator : QuotaEvaluator.forQuota(hard)) {
            Set<String> matched = new TreeSet<>(hard.stream().filter(evaluator::matchesResource).toList());
            matched.forEach(r -> usage.put(r, ResourceLists.ZERO));
            for (ObjectNode obj : watch(evaluator.resource()).lister().byNamespace(namespace).list()) {
                if (evaluator.matchesScopes(scopes, obj)) {
                    ResourceLists.add(usage, ResourceLists.mask(evaluator.usage(obj), matched));
                }
            }
        }
        ObjectNode used = ResourceLists.write(usage);
        status.update(namespace, name, current -> {
            ObjectNode s = current.with("status");
            if (current.path("spec").path("hard").equals(s.path("hard")) && used.equals(s.path("used"))) {
                return null;
            }
            s.set("hard", current.path("spec").path("hard").deepCopy());
            s.set("used", used);
            return current;
        }, false);
    }

    /** The informer of a counted resource, whose creates and deletes resync its namespace's quotas. */
    private SharedIndexInformer watch(GroupVersionResource gvr) {
        SharedIndexInformer informer = informers.forResource(gvr);
        counted.computeIfAbsent(gvr, g -> informer.addEventHandler(new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                if (!isInInitialList) {
                    resync(obj);
                }
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                if (usageMayDiffer(oldObj, newObj)) {
                    resync(newObj);
                }
            }

            @Override
            public void onDelete(ObjectNode obj) {
                resync(obj);
            }
        }));
        try {
            if (!informer.waitForSync(SYNC_WAIT)) {
                throw StatusException.serviceUnavailable(gvr + " is not read yet");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw StatusException.serviceUnavailable(gvr + " is not read yet");
        }
        return informer;
    }

    /** Whether an update may change what the object is charged: its spec, phase, allocation or deletion. */
    private static boolean usageMayDiffer(ObjectNode oldObj, ObjectNode newObj) {
        return !oldObj.path("spec").equals(newObj.path("spec"))
                || !oldObj.path("status").path("phase").equals(newObj.path("status").path("phase"))
                || !oldObj.path("status").path("allocatedResources").equals(newObj.path("status").path("allocatedResources"))
                || !oldObj.path("metadata").path("deletionTimestamp").equals(newObj.path("metadata").path("deletionTimestamp"));
    }

    private void resync(ObjectNode obj) {
        String namespace = obj.path("metadata").path("namespace").asText("");
        if (namespace.isEmpty()) {
            return;
        }
        for (ObjectNode quota : quotas.lister().byNamespace(namespace).list()) {
            queue.add(SharedIndexInformer.keyOf(quota));
        }
    }

    /** The cached quotas of a namespace. */
    List<ObjectNode> quotasIn(String namespace) {
        return quotas.lister().byNamespace(namespace).list();
    }
}
