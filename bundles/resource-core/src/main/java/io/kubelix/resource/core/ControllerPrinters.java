package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.List;

/**
 * The server-side Tables of pod templates and replication controllers, as kube's
 * printPodTemplate and printReplicationController define them.
 */
final class ControllerPrinters {
    static final String CONTAINERS_DESCRIPTION = "Names of each container in the template.";
    static final String IMAGES_DESCRIPTION = "Images referenced by each container in the template.";

    private ControllerPrinters() {
    }

    /** NAME, CONTAINERS, IMAGES, POD LABELS (kube prints no AGE for pod templates). */
    static List<TableColumn> podTemplateColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Containers", "string", "", CONTAINERS_DESCRIPTION, 0, o -> containers(o, "name")),
                new TableColumn("Images", "string", "", IMAGES_DESCRIPTION, 0, o -> containers(o, "image")),
                new TableColumn("Pod Labels", "string", "", "The labels for the pod template.", 0,
                        o -> formatLabels(o.path("template").path("metadata").path("labels"))));
    }

    /** NAME, DESIRED, CURRENT, READY, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
    static List<TableColumn> replicationControllerColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Desired", "integer", "", "Replicas is the number of desired replicas. This is a pointer "
                        + "to distinguish between explicit zero and unspecified. Defaults to 1. More info: "
                        + "https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
                        0, o -> o.path("spec").path("replicas").asLong(0)),
                new TableColumn("Current", "integer", "", "Replicas is the most recently observed number of replicas. More "
                        + "info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
                        0, o -> o.path("status").path("replicas").asLong(0)),
                new TableColumn("Ready", "integer", "", "The number of ready replicas for this replication controller.", 0,
                        o -> o.path("status").path("readyReplicas").asLong(0)),
                TableColumn.ageColumn(),
                new TableColumn("Containers", "string", "", CONTAINERS_DESCRIPTION, 1, o -> containers(o.path("spec"), "name")),
                new TableColumn("Images", "string", "", IMAGES_DESCRIPTION, 1, o -> containers(o.path("spec"), "image")),
                new TableColumn("Selector", "string", "", "Selector is a label query over pods that should match the "
                        + "Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. "
                        + "Label keys and values that must match in order to be controlled by this replication controller, "
                        + "if empty defaulted to labels on Pod template. More info: "
                        + "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
                        1, o -> formatLabels(o.path("spec").path("selector"))));
    }

    /** layoutContainerCells: the names or images of {@code holder.template.spec.containers}, comma-separated. */
    private static String containers(JsonNode holder, String field) {
        List<String> out = new ArrayList<>();
        holder.path("template").path("spec").path("containers").forEach(c -> out.add(c.path(field).asText("")));
        return String.join(",", out);
    }

    /** labels.FormatLabels: {@code k=v,k2=v2} sorted by key, {@code <none>} when empty. */
    static String formatLabels(JsonNode map) {
        if (!map.isObject() || map.isEmpty()) {
            return "<none>";
        }
        return LabelSelectors.format(JsonNodeFactory.instance.objectNode().set("matchLabels", map));
    }
}
