package io.kubelix.resource.core.replicationcontroller;

import io.kubelix.api.registry.TableColumn;
import io.kubelix.resource.core.pod.PodTemplatePrinters;

import java.util.List;

/** The server-side Table of replication controllers, as kube's printReplicationController defines it. */
final class ReplicationControllerPrinters {

    private ReplicationControllerPrinters() {
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
                new TableColumn("Containers", "string", "", PodTemplatePrinters.CONTAINERS_DESCRIPTION, 1,
                        o -> PodTemplatePrinters.containers(o.path("spec"), "name")),
                new TableColumn("Images", "string", "", PodTemplatePrinters.IMAGES_DESCRIPTION, 1,
                        o -> PodTemplatePrinters.containers(o.path("spec"), "image")),
                new TableColumn("Selector", "string", "", "Selector is a label query over pods that should match the "
                        + "Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. "
                        + "Label keys and values that must match in order to be controlled by this replication controller, "
                        + "if empty defaulted to labels on Pod template. More info: "
                        + "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
                        1, o -> PodTemplatePrinters.formatLabels(o.path("spec").path("selector"))));
    }
}
