package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * kube's HorizontalPodAutoscaler columns (printers.go): NAME, REFERENCE (kind/name), TARGETS (each
 * metric's current value over its target, two at most, then {@code + N more...}), MINPODS, MAXPODS,
 * REPLICAS, AGE, computed on the autoscaling/v2 form.
 */
final class HPAPrinters {
    static final int MAX_TARGETS = 2;

    private HPAPrinters() {
    }

    static List<TableColumn> columns() {
        return List.of(TableColumn.nameColumn(),
                column("Reference", "The scaled resource: its kind and name.", o -> o.path("spec").path("scaleTargetRef")
                        .path("kind").asText("") + "/" + o.path("spec").path("scaleTargetRef").path("name").asText("")),
                column("Targets", "The metrics: each one's current value over its target.",
                        o -> targets(o.path("spec").path("metrics"), o.path("status").path("currentMetrics"))),
                column("MinPods", "The lower limit of the number of replicas.", o -> o.path("spec").hasNonNull("minReplicas")
                        ? o.path("spec").path("minReplicas").asText() : "<unset>"),
                column("MaxPods", "The upper limit of the number of replicas.", o -> o.path("spec").path("maxReplicas").asLong(0)),
                column("Replicas", "The current number of replicas of the scaled resource.",
                        o -> o.path("status").path("currentReplicas").asLong(0)),
                TableColumn.ageColumn());
    }

    private static TableColumn column(String name, String description, Function<ObjectNode, Object> cell) {
        return new TableColumn(name, "string", "", description, 0, cell);
    }

    /** kube's formatHPAMetrics. */
    static String targets(JsonNode specs, JsonNode statuses) {
        if (specs.isEmpty()) {
            return "<none>";
        }
        List<String> list = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            JsonNode spec = specs.get(i);
            JsonNode status = i < statuses.size() ? statuses.get(i) : MissingNode.getInstance();
            list.add(target(spec, status));
        }
        if (list.size() > MAX_TARGETS) {
            return String.join(", ", list.subList(0, MAX_TARGETS)) + " + " + (list.size() - MAX_TARGETS) + " more...";
        }
        return String.join(", ", list);
    }

    private static String target(JsonNode spec, JsonNode status) {
        String type = spec.path("type").asText("");
        return switch (type) {
            case "External", "Object" -> {
                String field = type.equals("External") ? "external" : "object";
                JsonNode target = spec.path(field).path("target");
                JsonNode current = status.path(field).path("current");
                if (target.hasNonNull("averageValue")) {
                    yield text(current, "averageValue") + "/" + target.path("averageValue").asText() + " (avg)";
                }
                yield text(current, "value") + "/" + target.path("value").asText("0");
            }
            case "Pods" -> text(status.path("pods").path("current"), "averageValue") + "/"
                    + spec.path("pods").path("target").path("averageValue").asText("0");
            case "Resource", "ContainerResource" -> {
                String field = type.equals("Resource") ? "resource" : "containerResource";
                JsonNode source = spec.path(field);
                JsonNode target = source.path("target");
                JsonNode current = status.path(field).path("current");
                String name = source.path("name").asText("");
                if (target.hasNonNull("averageValue")) {
                    yield name + ": " + text(current, "averageValue") + "/" + target.path("averageValue").asText();
                }
                String now = current.hasNonNull("averageUtilization") ? current.path("averageUtilization").asText() + "%"
                        : "<unknown>";
                String want = target.hasNonNull("averageUtilization") ? target.path("averageUtilization").asText() + "%"
                        : "<auto>";
                yield name + ": " + now + "/" + want;
            }
            default -> "<unknown type>";
        };
    }

    /** A current quantity, or {@code <unknown>} when the status has none yet. */
    private static String text(JsonNode current, String field) {
        return current.hasNonNull(field) ? current.path(field).asText() : "<unknown>";
    }
}
