package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.resource.core.common.Quantities;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.function.Function;

/**
 * The PersistentVolumeClaimResize admission plugin (plugin/pkg/admission/storage/persistentvolume/resize):
 * an update that grows a claim's {@code spec.resources.requests.storage} is refused with kube's 403
 * unless the claim is bound and its StorageClass, the same before and after, has
 * {@code allowVolumeExpansion: true}. Shrinking a claim is the strategy's 422, which comes first.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class PersistentVolumeClaimResize implements ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "PersistentVolumeClaimResize";

    /** A StorageClass by name, as the informer has it. */
    private final Function<String, Optional<ObjectNode>> storageClass;

    @Activate
    public PersistentVolumeClaimResize(@Reference SharedInformerFactory informers) {
        this(name -> informers.forResource(DefaultStorageClass.STORAGE_CLASSES).lister().get(name));
    }

    PersistentVolumeClaimResize(Function<String, Optional<ObjectNode>> storageClass) {
        this.storageClass = storageClass;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.UPDATE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        if (!a.resource().group().isEmpty() || !"persistentvolumeclaims".equals(a.resource().resource())
                || !a.subresource().isEmpty() || a.object() == null || a.oldObject() == null) {
            return;
        }
        BigDecimal newSize = storage(a.object());
        BigDecimal oldSize = storage(a.oldObject());
        if (newSize.compareTo(oldSize) <= 0) {
            return;
        }
        if (!"Bound".equals(a.oldObject().path("status").path("phase").asText())) {
            throw forbidden(a, "Only bound persistent volume claims can be expanded");
        }
        if (!allowResize(a.object(), a.oldObject())) {
            throw forbidden(a, "only dynamically provisioned pvc can be resized and "
                    + "the storageclass that provisions the pvc must support resize");
        }
    }

    /** kube's allowResize: both claims name one class, and it allows expansion. */
    private boolean allowResize(ObjectNode claim, ObjectNode old) {
        String cls = storageClassOf(claim);
        if (cls.isEmpty() || !cls.equals(storageClassOf(old))) {
            return false;
        }
        return storageClass.apply(cls).map(sc -> sc.path("allowVolumeExpansion").asBoolean(false)).orElse(false);
    }

    /** The request, zero when unset (kube compares the zero Quantity of a missing key). */
    private static BigDecimal storage(ObjectNode claim) {
        BigDecimal q = Quantities.parse(claim.path("spec").path("resources").path("requests").get("storage"));
        return q == null ? BigDecimal.ZERO : q;
    }

    /** kube's GetPersistentVolumeClaimClass: the beta annotation, else {@code spec.storageClassName}. */
    private static String storageClassOf(ObjectNode claim) {
        JsonNode beta = claim.path("metadata").path("annotations").get(DefaultStorageClass.BETA_CLASS);
        return beta != null ? beta.asText("") : claim.path("spec").path("storageClassName").asText("");
    }

    private static StatusException forbidden(AdmissionAttributes a, String why) {
        return StatusException.forbidden(a.resource().groupResource(), a.name(), why);
    }
}
