package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.List;

/**
 * The server-side Table of pod templates, as kube's printPodTemplate defines it, and the cells of a
 * pod template that the workloads holding one print too.
 */
public final class PodTemplatePrinters {
    public static final String CONTAINERS_DESCRIPTION = "Names of each container in the template.";
    public static final String IMAGES_DESCRIPTION = "Images referenced by each container in the template.";

    private PodTemplatePrinters() {
    }

    /** NAME, CONTAINERS, IMAGES, POD LABELS (kube prints no AGE for pod templates). */
    static List<TableColumn> podTemplateColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Containers", "string", "", CONTAINERS_DESCRIPTION, 0, o -> containers(o, "name")),
                new TableColumn("Images", "string", "", IMAGES_DESCRIPTION, 0, o -> containers(o, "image")),
                new TableColumn("Pod Labels", "string", "", "The labels for the pod template.", 0,
                        o -> formatLabels(o.path("template").path("metadata").path("labels"))));
    }

    /** layoutContainerCells: the names or images of {@code holder.template.spec.containers}, comma-separated. */
    public static String containers(JsonNode holder, String field) {
        List<String> out = new ArrayList<>();
        holder.path("template").path("spec").path("containers").forEach(c -> out.add(c.path(field).asText("")));
        return String.join(",", out);
    }

    /** labels.FormatLabels: {@code k=v,k2=v2} sorted by key, {@code <none>} when empty. */
    public static String formatLabels(JsonNode map) {
        if (!map.isObject() || map.isEmpty()) {
            return "<none>";
        }
        return LabelSelectors.format(JsonNodeFactory.instance.objectNode().set("matchLabels", map));
    }
}
