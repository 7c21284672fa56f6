package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;

import java.util.List;

/**
 * kube's persistentvolumeStrategy and persistentvolumeclaimStrategy, one instance per kind: the
 * defaults (reclaim policy Retain for volumes, volume mode Filesystem, status phase Pending), a
 * status reset on create and kept on update (the {@code status} subresource writes it), and the
 * validation of {@link VolumeValidation}.
 */
final class PersistentVolumeStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final boolean claim;

    private PersistentVolumeStrategy(boolean claim) {
        this.claim = claim;
    }

    static PersistentVolumeStrategy volumes() {
        return new PersistentVolumeStrategy(false);
    }

    static PersistentVolumeStrategy claims() {
        return new PersistentVolumeStrategy(true);
    }

    private String kind() {
        return claim ? "PersistentVolumeClaim" : "PersistentVolume";
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectNode status = obj.putObject("status").put("phase", "Pending");
        if (!claim) {
            status.put("lastPhaseTransitionTime", now()); // kube's PersistentVolumeLastPhaseTransitionTime
        }
        defaults(obj);
    }

    private static String now() {
        return java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
        defaults(obj);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return claim ? VolumeValidation.validateClaim(obj) : VolumeValidation.validateVolume(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return claim ? VolumeValidation.validateClaimUpdate(obj, old) : VolumeValidation.validateVolumeUpdate(obj, old);
    }

    private void defaults(ObjectNode obj) {
        JsonNode specNode = obj.get("spec");
        ObjectNode spec = specNode instanceof ObjectNode s ? s : obj.putObject("spec");
        if (!claim && Nodes.text(spec, "persistentVolumeReclaimPolicy").isEmpty()) {
            spec.put("persistentVolumeReclaimPolicy", "Retain");
        }
        if (Nodes.text(spec, "volumeMode").isEmpty()) {
            spec.put("volumeMode", "Filesystem");
        }
        if (obj.get("status") instanceof ObjectNode status && Nodes.text(status, "phase").isEmpty()) {
            status.put("phase", "Pending");
        }
    }

    /** The {@code status} subresource's strategy of the same kind. */
    RESTUpdateStrategy statusStrategy() {
        return new RESTUpdateStrategy() {
            @Override
            public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                StatusStrategies.keepOnlyStatus(obj, old);
                if (obj.get("status") instanceof ObjectNode status) {
                    if (!claim && !Nodes.text(status, "phase").equals(old.path("status").path("phase").asText(""))) {
                        status.put("lastPhaseTransitionTime", now());
                    }
                }
            }

            @Override
            public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                return VolumeValidation.validatePhase(obj, claim ? VolumeValidation.CLAIM_PHASES : VolumeValidation.VOLUME_PHASES);
            }
        };
    }
}
