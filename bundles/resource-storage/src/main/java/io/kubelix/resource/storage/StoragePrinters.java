package io.kubelix.resource.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The server-side Table columns of the storage.k8s.io resources, with the names, types and cells
 * of kube's printers (pkg/printers/internalversion/printers.go).
 */
final class StoragePrinters {
    static final String DEFAULT_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class";
    static final String BETA_DEFAULT_CLASS_ANNOTATION = "storageclass.beta.kubernetes.io/is-default-class";

    private StoragePrinters() {
    }

    /** NAME (with {@code (default)} for the default class), PROVISIONER, RECLAIMPOLICY, VOLUMEBINDINGMODE, ALLOWVOLUMEEXPANSION, AGE. */
    static List<TableColumn> storageClassColumns() {
        return List.of(
                new TableColumn("Name", "string", "name", "Name must be unique within a namespace.", 0,
                        o -> name(o) + (isDefaultClass(o) ? " (default)" : "")),
                column("Provisioner", "string", "The name of the provisioner of volumes of this class.",
                        o -> o.path("provisioner").asText("")),
                column("ReclaimPolicy", "string", "What happens to dynamically provisioned volumes when released.",
                        o -> o.path("reclaimPolicy").asText("Delete")),
                column("VolumeBindingMode", "string", "When volumes are provisioned and bound.",
                        o -> o.path("volumeBindingMode").asText("Immediate")),
                column("AllowVolumeExpansion", "string", "Whether the class allows volume expansion.",
                        o -> o.path("allowVolumeExpansion").asBoolean(false)),
                TableColumn.ageColumn());
    }

    /** kube's IsDefaultAnnotation: the GA or beta annotation set to {@code "true"}. */
    static boolean isDefaultClass(ObjectNode o) {
        JsonNode annotations = o.path("metadata").path("annotations");
        return "true".equals(annotations.path(DEFAULT_CLASS_ANNOTATION).asText())
                || "true".equals(annotations.path(BETA_DEFAULT_CLASS_ANNOTATION).asText());
    }

    /** NAME, ATTACHREQUIRED, PODINFOONMOUNT, STORAGECAPACITY, TOKENREQUESTS, REQUIRESREPUBLISH, MODES, AGE. */
    static List<TableColumn> csiDriverColumns() {
        return List.of(TableColumn.nameColumn(),
                column("AttachRequired", "boolean", "Whether the driver needs an attach operation.",
                        o -> o.path("spec").path("attachRequired").asBoolean(true)),
                column("PodInfoOnMount", "boolean", "Whether the driver gets pod information on mount.",
                        o -> o.path("spec").path("podInfoOnMount").asBoolean(false)),
                column("StorageCapacity", "boolean", "Whether the driver's storage capacity is considered in scheduling.",
                        o -> o.path("spec").path("storageCapacity").asBoolean(false)),
                column("TokenRequests", "string", "The audiences of the service account tokens the driver receives.",
                        StoragePrinters::tokenRequests),
                column("RequiresRepublish", "boolean", "Whether the driver wants NodePublishVolume called periodically.",
                        o -> o.path("spec").path("requiresRepublish").asBoolean(false)),
                column("Modes", "string", "The volume lifecycle modes the driver supports.", StoragePrinters::modes),
                TableColumn.ageColumn());
    }

    private static String tokenRequests(ObjectNode o) {
        List<String> audiences = new ArrayList<>();
        o.path("spec").path("tokenRequests").forEach(t -> audiences.add(t.path("audience").asText("")));
        return audiences.isEmpty() ? "<unset>" : String.join(",", audiences);
    }

    private static String modes(ObjectNode o) {
        List<String> modes = new ArrayList<>();
        o.path("spec").path("volumeLifecycleModes").forEach(m -> modes.add(m.asText()));
        return modes.isEmpty() ? "<none>" : String.join(",", modes);
    }

    /** NAME, DRIVERS (how many), AGE. */
    static List<TableColumn> csiNodeColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Drivers", "integer", "", "Drivers indicates the number of CSI drivers registered on the "
                        + "node", 0, o -> (long) o.path("spec").path("drivers").size()),
                TableColumn.ageColumn());
    }

    /** NAME, ATTACHER, PV, NODE, ATTACHED, AGE. */
    static List<TableColumn> volumeAttachmentColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Attacher", "string", "name", "The CSI driver that handles the attachment.", 0,
                        o -> o.path("spec").path("attacher").asText("")),
                column("PV", "string", "The persistent volume attached.",
                        o -> o.path("spec").path("source").path("persistentVolumeName").asText("")),
                column("Node", "string", "The node the volume is attached to.",
                        o -> o.path("spec").path("nodeName").asText("")),
                column("Attached", "boolean", "Whether the volume is attached.",
                        o -> o.path("status").path("attached").asBoolean(false)),
                TableColumn.ageColumn());
    }

    private static String name(ObjectNode o) {
        return o.path("metadata").path("name").asText("");
    }

    private static TableColumn column(String name, String type, String description,
                                      Function<ObjectNode, Object> cell) {
        return new TableColumn(name, type, "", description, 0, cell);
    }
}
