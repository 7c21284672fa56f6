package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * kube's custom resource table convertor: the name, then a version's
 * {@code additionalPrinterColumns} (its JSONPath read from each object, integers, numbers and
 * booleans as such, dates as ages, other values printed), or {@code Age} when it declares none.
 */
final class PrinterColumns {
    private static final String CREATION_TIMESTAMP = "CreationTimestamp is a timestamp representing the server "
            + "time when this object was created. It is not guaranteed to be set in happens-before order across "
            + "separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\n"
            + "Populated by the system. Read-only. Null for lists. More info: "
            + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

    private PrinterColumns() {
    }

    static List<TableColumn> of(JsonNode version) {
        List<TableColumn> columns = new ArrayList<>();
        columns.add(TableColumn.nameColumn());
        JsonNode declared = version.path("additionalPrinterColumns");
        if (declared.isEmpty()) {
            columns.add(new TableColumn("Age", "date", "", CREATION_TIMESTAMP, 0, date(List.of("metadata", "creationTimestamp"))));
            return columns;
        }
        for (JsonNode col : declared) {
            String path = col.path("jsonPath").asText("");
            List<Object> steps = JsonPaths.parse(path);
            String type = col.path("type").asText("string");
            String description = col.path("description").asText("");
            if (description.isEmpty()) {
                description = "Custom resource definition column (in JSONPath format): " + path;
            }
            Function<ObjectNode, Object> cell = steps == null ? o -> null : cell(type, steps);
            columns.add(new TableColumn(col.path("name").asText(), type, col.path("format").asText(""), description,
                    col.path("priority").asInt(0), cell));
        }
        return columns;
    }

    private static Function<ObjectNode, Object> cell(String type, List<Object> steps) {
        if (type.equals("date")) {
            return date(steps);
        }
        return o -> {
            JsonNode v = JsonPaths.at(o, steps);
            if (v.isMissingNode() || v.isNull()) {
                return null;
            }
            return switch (type) {
                case "integer" -> v.isNumber() ? (Object) v.asLong() : null;
                case "number" -> v.isNumber() ? (Object) v.asDouble() : null;
                case "boolean" -> v.isBoolean() ? (Object) v.asBoolean() : null;
                default -> v.isValueNode() ? v.asText() : v.toString();
            };
        };
    }

    /** A date column: the age since the timestamp, {@code <invalid>} when it is not one. */
    private static Function<ObjectNode, Object> date(List<Object> steps) {
        return o -> {
            JsonNode v = JsonPaths.at(o, steps);
            if (!v.isTextual()) {
                return null;
            }
            try {
                return OffsetDateTime.parse(v.asText()).toInstant();
            } catch (RuntimeException e) {
                return "<invalid>";
            }
        };
    }
}
