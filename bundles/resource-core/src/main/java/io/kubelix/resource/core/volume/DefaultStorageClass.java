package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The DefaultStorageClass admission plugin (plugin/pkg/admission/storage/storageclass/setdefault):
 * a new PersistentVolumeClaim that names no storage class (no {@code spec.storageClassName} and no
 * beta annotation; an empty name asks for none) gets the default StorageClass, the one annotated
 * {@code storageclass.kubernetes.io/is-default-class: "true"} (or its beta form); when several
 * are, the newest, then the first by name, as kube's {@code GetDefaultClass} picks.
 */
// The name from before the package split: a plugin update swaps a component for the one of the same name.
@Component(name = "io.kubelix.resource.core.DefaultStorageClass", service = MutatingAdmissionPlugin.class)
public final class DefaultStorageClass implements MutatingAdmissionPlugin {
    static final String PLUGIN_NAME = "DefaultStorageClass";
    static final GroupVersionResource STORAGE_CLASSES = new GroupVersionResource("storage.k8s.io", "v1", "storageclasses");
    static final String IS_DEFAULT = "storageclass.kubernetes.io/is-default-class";
    static final String BETA_IS_DEFAULT = "storageclass.beta.kubernetes.io/is-default-class";
    static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";
    /** Newest first, then by name. */
    static final Comparator<JsonNode> NEWEST = Comparator.<JsonNode, String>comparing(
            c -> c.path("metadata").path("creationTimestamp").asText("")).reversed()
            .thenComparing(c -> c.path("metadata").path("name").asText(""));

    private final Supplier<List<ObjectNode>> storageClasses;

    @Activate
    public DefaultStorageClass(@Reference SharedInformerFactory informers) {
        this(() -> informers.forResource(STORAGE_CLASSES).lister().list());
    }

    DefaultStorageClass(Supplier<List<ObjectNode>> storageClasses) {
        this.storageClasses = storageClasses;
    }

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
        if (!ObjectWrites.of(a, "", "persistentvolumeclaims")) {
            return;
        }
        JsonNode spec = a.object().path("spec");
        if (spec.has("storageClassName") && !spec.get("storageClassName").isNull()
                || a.object().path("metadata").path("annotations").has(BETA_CLASS)) {
            return;
        }
        storageClasses.get().stream()
                .filter(c -> "true".equals(c.path("metadata").path("annotations").path(IS_DEFAULT).asText())
                        || "true".equals(c.path("metadata").path("annotations").path(BETA_IS_DEFAULT).asText()))
                .min(NEWEST)
                .ifPresent(c -> a.object().with("spec").put("storageClassName", c.path("metadata").path("name").asText()));
    }
}
