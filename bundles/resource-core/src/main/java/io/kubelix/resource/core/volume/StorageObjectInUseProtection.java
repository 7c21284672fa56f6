package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.osgi.service.component.annotations.Component;

/**
 * kube's StorageObjectInUseProtection admission plugin
 * (plugin/pkg/admission/storage/storageobjectinuseprotection): a new claim gets the finalizer
 * {@code kubernetes.io/pvc-protection} and a new volume {@code kubernetes.io/pv-protection}, so
 * that deleting one still in use waits until it is not; {@link StorageProtectionController}
 * removes them then.
 */
@Component(service = MutatingAdmissionPlugin.class)
public final class StorageObjectInUseProtection implements MutatingAdmissionPlugin {
    static final String PLUGIN_NAME = "StorageObjectInUseProtection";
    static final String PVC_PROTECTION = "kubernetes.io/pvc-protection";
    static final String PV_PROTECTION = "kubernetes.io/pv-protection";

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(AdmissionAttributes a) {
        String finalizer = ObjectWrites.of(a, "", "persistentvolumeclaims") ? PVC_PROTECTION
                : ObjectWrites.of(a, "", "persistentvolumes") ? PV_PROTECTION : null;
        if (finalizer == null) {
            return;
        }
        ObjectNode metadata = a.object().with("metadata");
        JsonNode finalizers = metadata.get("finalizers");
        if (finalizers != null && !finalizers.isNull() && !finalizers.isArray()) {
            return;
        }
        for (JsonNode f : finalizers == null || finalizers.isNull() ? metadata.arrayNode() : finalizers) {
            if (finalizer.equals(f.asText())) {
                return;
            }
        }
        (finalizers instanceof ArrayNode list ? list : metadata.putArray("finalizers")).add(finalizer);
    }
}
