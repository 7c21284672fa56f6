package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.resource.core.common.FieldChecks;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.resource.core.common.Quantities;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's ValidatePersistentVolume and ValidatePersistentVolumeClaim, with their update rules: access
 * modes, capacity and requested storage, reclaim policy, volume mode, storage class, exactly one
 * volume source for a volume; a claim's spec is immutable after creation except its storage
 * request once bound, and its volumeName until set.
 */
final class VolumeValidation {
    static final List<String> ACCESS_MODES = List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
    static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");
    static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");
    static final List<String> VOLUME_PHASES = List.of("Available", "Bound", "Failed", "Pending", "Released");
    static final List<String> CLAIM_PHASES = List.of("Bound", "Lost", "Pending");
    /** The persistent volume sources of a PersistentVolumeSpec, of which exactly one is set. */
    static final List<String> VOLUME_SOURCES = List.of("gcePersistentDisk", "awsElasticBlockStore", "hostPath",
            "glusterfs", "nfs", "rbd", "iscsi", "cinder", "cephfs", "fc", "flocker", "flexVolume", "azureFile",
            "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "local",
            "storageos", "csi");
    /** The fields each source requires. */
    private static final java.util.Map<String, List<String>> SOURCE_REQUIRED = java.util.Map.of(
            "hostPath", List.of("path"), "local", List.of("path"), "nfs", List.of("server", "path"),
            "csi", List.of("driver", "volumeHandle"), "iscsi", List.of("targetPortal", "iqn"),
            "gcePersistentDisk", List.of("pdName"), "awsElasticBlockStore", List.of("volumeID"),
            "cephfs", List.of("monitors"), "azureDisk", List.of("diskName", "diskURI"));

    private VolumeValidation() {
    }

    static List<FieldError> validateVolume(ObjectNode pv) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = pv.path("spec");
        accessModes(spec.path("accessModes"), "spec.accessModes", "must specify at least 1 access mode", errs);
        JsonNode capacity = spec.path("capacity");
        if (capacity.isEmpty()) {
            errs.add(FieldError.required("spec.capacity", ""));
        }
        if (!capacity.has("storage") || capacity.size() > 1) {
            errs.add(FieldError.notSupported("spec.capacity", new GoSyntax(resourceList(capacity)), List.of("storage")));
        }
        capacity.fields().forEachRemaining(e -> positive(e.getValue(), "spec.capacity[" + e.getKey() + "]", errs));
        errs.addAll(FieldChecks.optionalOneOf(spec, "persistentVolumeReclaimPolicy", "spec.persistentVolumeReclaimPolicy",
                RECLAIM_POLICIES));
        errs.addAll(FieldChecks.optionalOneOf(spec, "volumeMode", "spec.volumeMode", VOLUME_MODES));
        String storageClass = Nodes.text(spec, "storageClassName");
        if (!storageClass.isEmpty()) {
            errs.addAll(FieldChecks.dns1123Subdomain(storageClass, "spec.storageClassName"));
        }
        List<String> sources = new ArrayList<>();
        for (String s : VOLUME_SOURCES) {
            if (spec.get(s) != null && !spec.get(s).isNull()) {
                sources.add(s);
            }
        }
        if (sources.isEmpty()) {
            errs.add(FieldError.required("spec", "must specify a volume type"));
        } else if (sources.size() > 1) {
            errs.add(FieldError.forbidden("spec." + sources.get(1), "may not specify more than 1 volume type"));
        } else {
            String source = sources.get(0);
            for (String field : SOURCE_REQUIRED.getOrDefault(source, List.of())) {
                JsonNode v = spec.path(source).path(field);
                if (v.isMissingNode() || v.isNull() || (v.isTextual() && v.asText().isEmpty()) || (v.isArray() && v.isEmpty())) {
                    errs.add(FieldError.required("spec." + source + "." + field, ""));
                }
            }
            if ("local".equals(source) && spec.path("nodeAffinity").isMissingNode()) {
                errs.add(FieldError.required("spec.nodeAffinity", "Local volume requires node affinity"));
            }
        }
        JsonNode claimRef = spec.path("claimRef");
        if (claimRef.isObject() && Nodes.text(claimRef, "name").isEmpty()) {
            errs.add(FieldError.required("spec.claimRef.name", ""));
        }
        return errs;
    }

    /** ValidatePersistentVolumeUpdate: the volume source and the volume mode are immutable. */
    static List<FieldError> validateVolumeUpdate(ObjectNode pv, ObjectNode old) {
        List<FieldError> errs = validateVolume(pv);
        JsonNode spec = pv.path("spec");
        JsonNode oldSpec = old.path("spec");
        for (String s : VOLUME_SOURCES) {
            if (!spec.path(s).equals(oldSpec.path(s))) {
                errs.add(FieldError.forbidden("spec.persistentvolumesource",
                        "spec.persistentvolumesource is immutable after creation"));
                break;
            }
        }
        if (!Nodes.text(spec, "volumeMode").equals(Nodes.text(oldSpec, "volumeMode"))) {
            errs.add(FieldError.invalid("spec.volumeMode", Nodes.text(spec, "volumeMode"), "field is immutable"));
        }
        return errs;
    }

    static List<FieldError> validateClaim(ObjectNode pvc) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = pvc.path("spec");
        accessModes(spec.path("accessModes"), "spec.accessModes", "at least 1 access mode is required", errs);
        JsonNode selector = spec.get("selector");
        if (selector != null && !selector.isNull()) {
            errs.addAll(MetadataValidators.validateLabelSelector(selector, "spec.selector"));
        }
        JsonNode storage = spec.path("resources").path("requests").get("storage");
        if (storage == null || storage.isNull()) {
            errs.add(FieldError.required("spec.resources[storage]", ""));
        } else {
            BigDecimal q = Quantities.parse(storage);
            if (q != null && q.signum() <= 0) {
                errs.add(FieldError.invalid("spec.resources.requests[storage]", storage.asText(), "must be greater than zero"));
            }
        }
        String storageClass = Nodes.text(spec, "storageClassName");
        if (!storageClass.isEmpty()) {
            errs.addAll(FieldChecks.dns1123Subdomain(storageClass, "spec.storageClassName"));
        }
        errs.addAll(FieldChecks.optionalOneOf(spec, "volumeMode", "spec.volumeMode", VOLUME_MODES));
        return errs;
    }

    /**
     * ValidatePersistentVolumeClaimUpdate: the spec may change only in its storage request (once the
     * claim is bound), its volumeAttributesClassName, and its volumeName while unset.
     */
    static List<FieldError> validateClaimUpdate(ObjectNode pvc, ObjectNode old) {
        List<FieldError> errs = validateClaim(pvc);
        ObjectNode spec = pvc.path("spec") instanceof ObjectNode s ? s.deepCopy() : pvc.objectNode();
        ObjectNode oldSpec = old.path("spec") instanceof ObjectNode s ? s.deepCopy() : pvc.objectNode();
        if (Nodes.text(oldSpec, "volumeName").isEmpty()) {
            oldSpec.set("volumeName", spec.get("volumeName"));
        }
        spec.remove("volumeAttributesClassName");
        oldSpec.remove("volumeAttributesClassName");
        if ("Bound".equals(old.path("status").path("phase").asText()) && spec.path("resources").path("requests") instanceof ObjectNode requests
                && oldSpec.path("resources").path("requests").has("storage")) {
            requests.set("storage", oldSpec.path("resources").path("requests").get("storage"));
        }
        removeNulls(spec);
        removeNulls(oldSpec);
        if (!spec.equals(oldSpec)) {
            errs.add(FieldError.forbidden("spec", "spec is immutable after creation except resources.requests and "
                    + "volumeAttributesClassName for bound claims"));
        } else if ("Bound".equals(old.path("status").path("phase").asText())) {
            BigDecimal now = Quantities.parse(pvc.path("spec").path("resources").path("requests").get("storage"));
            BigDecimal before = Quantities.parse(old.path("spec").path("resources").path("requests").get("storage"));
            BigDecimal capacity = Quantities.parse(old.path("status").path("capacity").get("storage"));
            BigDecimal floor = capacity != null ? capacity : before;
            if (now != null && floor != null && now.compareTo(floor) < 0) {
                errs.add(FieldError.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"));
            }
        }
        return errs;
    }

    /** Status of a volume or claim: its phase, when set, is one kube knows. */
    static List<FieldError> validatePhase(ObjectNode obj, List<String> phases) {
        return FieldChecks.optionalOneOf(obj.path("status"), "phase", "status.phase", phases);
    }

    private static void accessModes(JsonNode modes, String path, String requiredDetail, List<FieldError> errs) {
        if (modes.isEmpty()) {
            errs.add(FieldError.required(path, requiredDetail));
            return;
        }
        Set<String> seen = new HashSet<>();
        for (JsonNode m : modes) {
            String mode = m.asText("");
            seen.add(mode);
            if (!ACCESS_MODES.contains(mode)) {
                errs.add(FieldError.notSupported(path, mode, ACCESS_MODES));
            }
        }
        if (seen.contains("ReadWriteOncePod") && seen.size() > 1) {
            errs.add(FieldError.forbidden(path, "may not use ReadWriteOncePod with other access modes"));
        }
    }

    private static void positive(JsonNode value, String path, List<FieldError> errs) {
        BigDecimal q = Quantities.parse(value);
        if (q != null && q.signum() <= 0) {
            errs.add(FieldError.invalid(path, Quantities.text(value), "must be greater than zero"));
        }
    }

    /** A resource list as Go prints a core.ResourceList. */
    private static String resourceList(JsonNode list) {
        List<String> items = new ArrayList<>();
        list.fields().forEachRemaining(e -> items.add("\"" + e.getKey() + "\":resource.MustParse(\"" + e.getValue().asText() + "\")"));
        return "core.ResourceList{" + String.join(", ", items) + "}";
    }

    private static void removeNulls(ObjectNode obj) {
        for (var it = obj.fields(); it.hasNext(); ) {
            if (it.next().getValue().isNull()) {
                it.remove();
            }
        }
    }
}
