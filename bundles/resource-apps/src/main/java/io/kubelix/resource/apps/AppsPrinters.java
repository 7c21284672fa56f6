package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server-side Table columns of the apps resources, as kube's printers
 * (pkg/printers/internalversion/printers.go) define them: the same names, types, descriptions and
 * priorities ({@code -o wide} shows the priority 1 columns), and the same cells.
 */
final class AppsPrinters {
    static final String CONTAINERS_DESCRIPTION = "Names of each container in the template.";
    static final String IMAGES_DESCRIPTION = "Images referenced by each container in the template.";
    static final String READY_DESCRIPTION = "Number of the pod with ready state";
    static final String SELECTOR_DESCRIPTION = "Label selector for pods. Existing ReplicaSets whose pods are selected by "
            + "this will be the ones affected by this deployment. It must match the pod template's labels.";
    static final String RS_SELECTOR_DESCRIPTION = "Selector is a label query over pods that should match the replica "
            + "count. Label keys and values that must match in order to be controlled by this replica set. It must match "
            + "the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";
    static final String DS_SELECTOR_DESCRIPTION = "A label query over pods that are managed by the daemon set. Must match "
            + "in order to be controlled. It must match the pod template's labels. More info: "
            + "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";

    private AppsPrinters() {
    }

    /** NAME, READY (ready/desired), UP-TO-DATE, AVAILABLE, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
    static List<TableColumn> deploymentColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Ready", "string", READY_DESCRIPTION, 0,
                        o -> status(o, "readyReplicas") + "/" + spec(o, "replicas")),
                column("Up-to-date", "string", "Total number of non-terminating pods targeted by this deployment that "
                        + "have the desired template spec.", 0, o -> status(o, "updatedReplicas")),
                column("Available", "string", "Total number of available non-terminating pods (ready for at least "
                        + "minReadySeconds) targeted by this deployment.", 0, o -> status(o, "availableReplicas")),
                TableColumn.ageColumn(),
                column("Containers", "string", CONTAINERS_DESCRIPTION, 1, o -> containers(o, "name")),
                column("Images", "string", IMAGES_DESCRIPTION, 1, o -> containers(o, "image")),
                column("Selector", "string", SELECTOR_DESCRIPTION, 1, AppsPrinters::selector));
    }

    /** NAME, DESIRED, CURRENT, READY, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
    static List<TableColumn> replicaSetColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Desired", "integer", "Replicas is the number of desired pods. This is a pointer to distinguish "
                        + "between explicit zero and unspecified. Defaults to 1. More info: "
                        + "https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#how-a-replicaset-works",
                        0, o -> spec(o, "replicas")),
                column("Current", "integer", "Replicas is the most recently observed number of non-terminating pods. "
                        + "More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#how-a-replicaset-works",
                        0, o -> status(o, "replicas")),
                column("Ready", "integer", "The number of non-terminating pods targeted by this ReplicaSet with a Ready "
                        + "Condition.", 0, o -> status(o, "readyReplicas")),
                TableColumn.ageColumn(),
                column("Containers", "string", CONTAINERS_DESCRIPTION, 1, o -> containers(o, "name")),
                column("Images", "string", IMAGES_DESCRIPTION, 1, o -> containers(o, "image")),
                column("Selector", "string", RS_SELECTOR_DESCRIPTION, 1, AppsPrinters::selector));
    }

    /** NAME, READY (ready/desired), AGE; wide: CONTAINERS, IMAGES. */
    static List<TableColumn> statefulSetColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Ready", "string", READY_DESCRIPTION, 0,
                        o -> status(o, "readyReplicas") + "/" + spec(o, "replicas")),
                TableColumn.ageColumn(),
                column("Containers", "string", CONTAINERS_DESCRIPTION, 1, o -> containers(o, "name")),
                column("Images", "string", IMAGES_DESCRIPTION, 1, o -> containers(o, "image")));
    }

    /** NAME, DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE, NODE SELECTOR, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
    static List<TableColumn> daemonSetColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Desired", "integer", "The total number of nodes that should be running the daemon pod "
                        + "(including nodes correctly running the daemon pod). More info: "
                        + "https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/", 0,
                        o -> status(o, "desiredNumberScheduled")),
                column("Current", "integer", "The number of nodes that are running at least 1 daemon pod and are "
                        + "supposed to run the daemon pod. More info: "
                        + "https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/", 0,
                        o -> status(o, "currentNumberScheduled")),
                column("Ready", "integer", "numberReady is the number of nodes that should be running the daemon pod "
                        + "and have one or more of the daemon pod running with a Ready Condition.", 0,
                        o -> status(o, "numberReady")),
                column("Up-to-date", "integer", "The total number of nodes that are running updated daemon pod", 0,
                        o -> status(o, "updatedNumberScheduled")),
                column("Available", "integer", "The number of nodes that should be running the daemon pod and have one "
                        + "or more of the daemon pod running and available (ready for at least spec.minReadySeconds)", 0,
                        o -> status(o, "numberAvailable")),
                column("Node Selector", "string", "NodeSelector is a selector which must be true for the pod to fit on a "
                        + "node. Selector which must match a node's labels for the pod to be scheduled on that node. More "
                        + "info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/", 0,
                        o -> formatLabels(o.path("spec").path("template").path("spec").path("nodeSelector"))),
                TableColumn.ageColumn(),
                column("Containers", "string", CONTAINERS_DESCRIPTION, 1, o -> containers(o, "name")),
                column("Images", "string", IMAGES_DESCRIPTION, 1, o -> containers(o, "image")),
                column("Selector", "string", DS_SELECTOR_DESCRIPTION, 1, AppsPrinters::selector));
    }

    /** NAME, CONTROLLER (kind.group/name of the controller owner, or {@code <none>}), REVISION, AGE. */
    static List<TableColumn> controllerRevisionColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Controller", "string", "Controller of the object", 0, AppsPrinters::controller),
                column("Revision", "integer", "Revision indicates the revision of the state represented by Data.", 0,
                        o -> o.path("revision").asLong(0)),
                TableColumn.ageColumn());
    }

    private static TableColumn column(String name, String type, String description, int priority,
                                      java.util.function.Function<ObjectNode, Object> cell) {
        return new TableColumn(name, type, "", description, priority, cell);
    }

    private static long spec(ObjectNode o, String field) {
        return o.path("spec").path(field).asLong(0);
    }

    private static long status(ObjectNode o, String field) {
        return o.path("status").path(field).asLong(0);
    }

    /** layoutContainerCells: the template's container names or images, comma-separated. */
    private static String containers(ObjectNode o, String field) {
        List<String> out = new ArrayList<>();
        o.path("spec").path("template").path("spec").path("containers").forEach(c -> out.add(c.path(field).asText("")));
        return String.join(",", out);
    }

    private static String selector(ObjectNode o) {
        try {
            return LabelSelectors.format(o.path("spec").get("selector"));
        } catch (IllegalArgumentException e) {
            return "<invalid>";
        }
    }

    /** labels.FormatLabels: {@code k=v,k2=v2} sorted by key, {@code <none>} when empty. */
    static String formatLabels(JsonNode map) {
        Map<String, String> sorted = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            sorted.put(e.getKey(), e.getValue().asText());
        }
        if (sorted.isEmpty()) {
            return "<none>";
        }
        List<String> parts = new ArrayList<>();
        sorted.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(",", parts);
    }

    /** printers.FormatResourceName of the controller owner reference: {@code daemonset.apps/web}. */
    private static String controller(ObjectNode o) {
        for (JsonNode ref : o.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                String apiVersion = ref.path("apiVersion").asText("");
                int slash = apiVersion.indexOf('/');
                String group = slash < 0 ? "" : apiVersion.substring(0, slash);
                String kind = ref.path("kind").asText("");
                String groupKind = group.isEmpty() ? kind : kind + "." + group;
                return groupKind.isEmpty() ? ref.path("name").asText("")
                        : groupKind.toLowerCase(Locale.ROOT) + "/" + ref.path("name").asText("");
            }
        }
        return "<none>";
    }
}
