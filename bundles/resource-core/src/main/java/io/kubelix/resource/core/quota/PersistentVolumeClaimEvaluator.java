package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.quantity.Quantity;

import java.util.Map;
import java.util.TreeMap;

/**
 * kube's persistent volume claim quota evaluator (pkg/quota/v1/evaluator/core/persistent_volume_claims.go):
 * a claim is one of {@code persistentvolumeclaims} and {@code count/persistentvolumeclaims} and is
 * charged its storage request (or what was allocated to it, when more) as {@code requests.storage};
 * a claim of a storage class is charged the same again as
 * {@code <class>.storageclass.storage.k8s.io/persistentvolumeclaims} and {@code .../requests.storage}.
 */
final class PersistentVolumeClaimEvaluator implements QuotaEvaluator {
    static final PersistentVolumeClaimEvaluator INSTANCE = new PersistentVolumeClaimEvaluator();
    static final GroupVersionResource CLAIMS = new GroupVersionResource("", "v1", "persistentvolumeclaims");
    static final String STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
    /** The beta annotation kube still reads before {@code spec.storageClassName}. */
    private static final String BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

    private PersistentVolumeClaimEvaluator() {
    }

    @Override
    public GroupVersionResource resource() {
        return CLAIMS;
    }

    @Override
    public boolean matchesResource(String name) {
        if (name.equals("persistentvolumeclaims") || name.equals("count/persistentvolumeclaims")
                || name.equals("requests.storage")) {
            return true;
        }
        int at = name.indexOf(STORAGE_CLASS_SUFFIX);
        if (at <= 0) {
            return false;
        }
        String rest = name.substring(at + STORAGE_CLASS_SUFFIX.length());
        return rest.equals("persistentvolumeclaims") || rest.equals("requests.storage");
    }

    @Override
    public Map<String, Quantity> usage(ObjectNode claim) {
        Map<String, Quantity> usage = new TreeMap<>();
        usage.put("persistentvolumeclaims", ResourceLists.ONE);
        usage.put("count/persistentvolumeclaims", ResourceLists.ONE);
        String storageClass = storageClass(claim);
        if (!storageClass.isEmpty()) {
            usage.put(storageClass + STORAGE_CLASS_SUFFIX + "persistentvolumeclaims", ResourceLists.ONE);
        }
        Quantity storage = storageToBill(claim);
        if (storage != null) {
            usage.put("requests.storage", storage);
            if (!storageClass.isEmpty()) {
                usage.put(storageClass + STORAGE_CLASS_SUFFIX + "requests.storage", storage);
            }
        }
        return usage;
    }

    /** kube's getStorageToBill: the request, or what the claim was given when that is more (a shrunk resize). */
    private static Quantity storageToBill(ObjectNode claim) {
        Quantity request = ResourceLists.quantity(claim.path("spec").path("resources").path("requests").get("storage"));
        Quantity allocated = ResourceLists.quantity(claim.path("status").path("allocatedResources").get("storage"));
        if (allocated != null && (request == null || allocated.compareTo(request) > 0)) {
            return allocated;
        }
        return request;
    }

    /** kube's GetPersistentVolumeClaimClass. */
    private static String storageClass(ObjectNode claim) {
        String beta = claim.path("metadata").path("annotations").path(BETA_CLASS_ANNOTATION).asText("");
        return beta.isEmpty() ? claim.path("spec").path("storageClassName").asText("") : beta;
    }
}
