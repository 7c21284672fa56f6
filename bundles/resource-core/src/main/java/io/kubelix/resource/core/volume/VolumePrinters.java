package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The Table columns of persistent volumes and claims, as kube's printPersistentVolume(Claim) fill them. */
final class VolumePrinters {
    static final String UNSET = "<unset>";
    /** The legacy annotation kube still reads a volume's or claim's class from. */
    static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

    private VolumePrinters() {
    }

    /** NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE; wide: VOLUMEMODE. */
    static List<TableColumn> volumeColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Capacity", "string", "", "capacity is the description of the persistent volume's "
                        + "resources and capacity.", 0, o -> o.path("spec").path("capacity").path("storage").asText("")),
                new TableColumn("Access Modes", "string", "", "accessModes contains all ways the volume can be mounted.", 0,
                        o -> accessModes(o.path("spec").path("accessModes"))),
                new TableColumn("Reclaim Policy", "string", "", "persistentVolumeReclaimPolicy defines what happens to a "
                        + "persistent volume when released from its claim.", 0,
                        o -> o.path("spec").path("persistentVolumeReclaimPolicy").asText("")),
                new TableColumn("Status", "string", "", "phase indicates if a volume is available, bound to a claim, or "
                        + "released by a claim.", 0, o -> o.path("status").path("phase").asText("")),
                new TableColumn("Claim", "string", "", "claimRef is part of a bi-directional binding between "
                        + "PersistentVolume and PersistentVolumeClaim.", 0, VolumePrinters::claim),
                new TableColumn("StorageClass", "string", "", "storageClassName is the name of StorageClass to which "
                        + "this persistent volume belongs.", 0, VolumePrinters::storageClass),
                new TableColumn("VolumeAttributesClass", "string", "", "volumeAttributesClassName is the name of "
                        + "VolumeAttributesClass to which this persistent volume belongs.", 0,
                        o -> orUnset(o.path("spec").path("volumeAttributesClassName").asText(""))),
                new TableColumn("Reason", "string", "", "reason is a brief CamelCase string that describes any failure.", 0,
                        o -> o.path("status").path("reason").asText("")),
                TableColumn.ageColumn(),
                new TableColumn("VolumeMode", "string", "", "volumeMode defines if a volume is intended to be used with a "
                        + "formatted filesystem or to remain in raw block state.", 1,
                        o -> orUnset(o.path("spec").path("volumeMode").asText(""))));
    }

    /** NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE; wide: VOLUMEMODE. */
    static List<TableColumn> claimColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Status", "string", "", "phase represents the current phase of PersistentVolumeClaim.", 0,
                        o -> o.path("metadata").hasNonNull("deletionTimestamp") ? "Terminating"
                                : o.path("status").path("phase").asText("")),
                new TableColumn("Volume", "string", "", "volumeName is the binding reference to the PersistentVolume "
                        + "backing this claim.", 0, o -> o.path("spec").path("volumeName").asText("")),
                new TableColumn("Capacity", "string", "", "capacity represents the actual resources of the underlying "
                        + "volume.", 0, o -> bound(o) ? o.path("status").path("capacity").path("storage").asText("") : ""),
                new TableColumn("Access Modes", "string", "", "accessModes contains the actual access modes the volume "
                        + "backing the PVC has.", 0, o -> bound(o) ? accessModes(o.path("status").path("accessModes")) : ""),
                new TableColumn("StorageClass", "string", "", "storageClassName is the name of the StorageClass required "
                        + "by the claim.", 0, VolumePrinters::storageClass),
                new TableColumn("VolumeAttributesClass", "string", "", "volumeAttributesClassName may be used to set the "
                        + "VolumeAttributesClass used by this claim.", 0,
                        o -> orUnset(o.path("status").path("currentVolumeAttributesClassName").asText(""))),
                TableColumn.ageColumn(),
                new TableColumn("VolumeMode", "string", "", "volumeMode defines what type of volume is required by the "
                        + "claim.", 1, o -> orUnset(o.path("spec").path("volumeMode").asText(""))));
    }

    private static boolean bound(ObjectNode claim) {
        return !claim.path("spec").path("volumeName").asText("").isEmpty();
    }

    /** GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
    static String accessModes(JsonNode modes) {
        Set<String> set = new HashSet<>();
        modes.forEach(m -> set.add(m.asText()));
        List<String> out = new ArrayList<>();
        if (set.contains("ReadWriteOnce")) {
            out.add("RWO");
        }
        if (set.contains("ReadOnlyMany")) {
            out.add("ROX");
        }
        if (set.contains("ReadWriteMany")) {
            out.add("RWX");
        }
        if (set.contains("ReadWriteOncePod")) {
            out.add("RWOP");
        }
        return String.join(",", out);
    }

    private static String claim(ObjectNode pv) {
        JsonNode ref = pv.path("spec").path("claimRef");
        return ref.isObject() ? ref.path("namespace").asText("") + "/" + ref.path("name").asText("") : "";
    }

    /** GetPersistentVolume(Claim)Class: the beta annotation, else spec.storageClassName. */
    private static String storageClass(ObjectNode obj) {
        JsonNode annotation = obj.path("metadata").path("annotations").get(BETA_STORAGE_CLASS);
        return annotation != null ? annotation.asText() : obj.path("spec").path("storageClassName").asText("");
    }

    private static String orUnset(String value) {
        return value.isEmpty() ? UNSET : value;
    }
}
