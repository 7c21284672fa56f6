package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * kube-controller-manager's pvc-protection and pv-protection controllers, run by this plugin: a
 * claim being deleted loses {@code kubernetes.io/pvc-protection} once no pod scheduled to a node
 * and not finished uses it (through a {@code persistentVolumeClaim} volume, or an ephemeral one
 * named {@code <pod>-<volume>}); a volume being deleted loses {@code kubernetes.io/pv-protection}
 * once it is not {@code Bound}. Driven by the server's informers: claims and volumes when they
 * change, a claim again when a pod using it goes or finishes. Keys are {@code pvc/<ns>/<name>} and
 * {@code pv/<name>}.
 */
public final class StorageProtectionController {
    static final GroupVersionResource CLAIMS = new GroupVersionResource("", "v1", "persistentvolumeclaims");
    static final GroupVersionResource VOLUMES = new GroupVersionResource("", "v1", "persistentvolumes");
    static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final String MANAGER = "storage-protection-controller";

    private static final Logger LOG = LoggerFactory.getLogger(StorageProtectionController.class);

    private final StandardStorage claimStore;
    private final StandardStorage volumeStore;
    private final SharedInformerFactory informers;
    private final SharedIndexInformer claims;
    private final SharedIndexInformer volumes;
    private final SharedIndexInformer pods;
    private final RateLimitingQueue<String> queue;
    private Workers workers;
    private List<ResourceEventHandlerRegistration> registrations = List.of();

    public StorageProtectionController(StandardStorage claimStore, StandardStorage volumeStore,
                                       SharedInformerFactory informers) {
        this.claimStore = claimStore;
        this.volumeStore = volumeStore;
        this.informers = informers;
        this.claims = informers.forResource(CLAIMS);
        this.volumes = informers.forResource(VOLUMES);
        this.pods = informers.forResource(PODS);
        this.queue = informers.newRateLimitingQueue("storage-protection");
    }

    public synchronized void start() {
        registrations = List.of(
                claims.addEventHandler(handler(o -> "pvc/" + SharedIndexInformer.keyOf(o))),
                volumes.addEventHandler(handler(o -> "pv/" + SharedIndexInformer.keyOf(o))),
                pods.addEventHandler(new ResourceEventHandler() {
                    @Override
                    public void onAdd(ObjectNode obj, boolean isInInitialList) {
                    }

                    @Override
                    public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                        if (!inUse(newObj)) {
                            queueClaimsOf(newObj);
                        }
                    }

                    @Override
                    public void onDelete(ObjectNode obj) {
                        queueClaimsOf(obj);
                    }
                }));
        workers = informers.runWorkers("storage-protection", queue, 1, this::sync);
    }

    /** Removes the handlers, lets the worker finish what is queued, and ends it. */
    public synchronized void stop() {
        registrations.forEach(ResourceEventHandlerRegistration::close);
        if (workers != null) {
            workers.stop();
        }
    }

    /** Queues a claim or volume whose deletion may now go on. */
    private ResourceEventHandler handler(Function<ObjectNode, String> key) {
        return new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                if (obj.path("metadata").hasNonNull("deletionTimestamp")) {
                    queue.add(key.apply(obj));
                }
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                onAdd(newObj, false);
            }

            @Override
            public void onDelete(ObjectNode obj) {
            }
        };
    }

    private void queueClaimsOf(ObjectNode pod) {
        String namespace = pod.path("metadata").path("namespace").asText();
        for (String claim : claimNames(pod)) {
            queue.add("pvc/" + namespace + "/" + claim);
        }
    }

    /** Removes the finalizer of the claim or volume the key names when nothing uses it any more. */
    void sync(String key) {
        if (key.startsWith("pvc/")) {
            String[] nsName = key.substring("pvc/".length()).split("/", 2);
            ObjectNode claim = claims.lister().byNamespace(nsName[0]).get(nsName[1]).orElse(null);
            if (claim != null && deleting(claim, StorageObjectInUseProtection.PVC_PROTECTION) && !used(claim)) {
                release(claimStore, VolumeSpecs.PERSISTENT_VOLUME_CLAIMS, claim, StorageObjectInUseProtection.PVC_PROTECTION);
            }
        } else if (key.startsWith("pv/")) {
            ObjectNode volume = volumes.lister().get(key.substring("pv/".length())).orElse(null);
            if (volume != null && deleting(volume, StorageObjectInUseProtection.PV_PROTECTION)
                    && !"Bound".equals(volume.path("status").path("phase").asText())) {
                release(volumeStore, VolumeSpecs.PERSISTENT_VOLUMES, volume, StorageObjectInUseProtection.PV_PROTECTION);
            }
        }
    }

    private boolean used(ObjectNode claim) {
        String name = claim.path("metadata").path("name").asText();
        return pods.lister().byNamespace(claim.path("metadata").path("namespace").asText()).list().stream()
                .anyMatch(p -> inUse(p) && claimNames(p).contains(name));
    }

    /** kube's podUsesPVC: only a pod scheduled to a node, and not finished, holds its claims. */
    private static boolean inUse(ObjectNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return !pod.path("spec").path("nodeName").asText("").isEmpty() && !phase.equals("Succeeded")
                && !phase.equals("Failed");
    }

    /** The claims a pod's volumes name: {@code persistentVolumeClaim.claimName}, or {@code <pod>-<volume>} for an ephemeral one. */
    static List<String> claimNames(ObjectNode pod) {
        String podName = pod.path("metadata").path("name").asText();
        List<String> names = new ArrayList<>();
        for (JsonNode v : pod.path("spec").path("volumes")) {
            if (v.path("persistentVolumeClaim").hasNonNull("claimName")) {
                names.add(v.path("persistentVolumeClaim").path("claimName").asText());
            } else if (v.hasNonNull("ephemeral")) {
                names.add(podName + "-" + v.path("name").asText());
            }
        }
        return names;
    }

    private static boolean deleting(ObjectNode obj, String finalizer) {
        if (!obj.path("metadata").hasNonNull("deletionTimestamp")) {
            return false;
        }
        for (JsonNode f : obj.path("metadata").path("finalizers")) {
            if (finalizer.equals(f.asText())) {
                return true;
            }
        }
        return false;
    }

    private static void release(StandardStorage store, GroupResource resource, ObjectNode obj, String finalizer) {
        String namespace = obj.path("metadata").path("namespace").asText("");
        String name = obj.path("metadata").path("name").asText();
        try {
            store.update(RequestContext.system(namespace), name, (ctx, old) -> {
                if (old == null) {
                    throw StatusException.notFound(resource, name);
                }
                ObjectNode changed = old.deepCopy();
                ArrayNode kept = changed.with("metadata").putArray("finalizers");
                old.path("metadata").path("finalizers").forEach(f -> {
                    if (!finalizer.equals(f.asText())) {
                        kept.add(f);
                    }
                });
                return changed;
            }, new UpdateOptions(false, MANAGER));
            LOG.info("removed finalizer {} from {}{}", finalizer, namespace.isEmpty() ? "" : namespace + "/", name);
        } catch (StatusException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
        }
    }
}
