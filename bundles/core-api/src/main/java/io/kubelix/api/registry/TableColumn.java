package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.function.Function;

/**
 * One column of the server-side Table (metav1.TableColumnDefinition) and how to compute its cell.
 *
 * @param name        the header, such as {@code Data}; kubectl prints it upper-cased
 * @param type        OpenAPI type: {@code string}, {@code integer}, {@code number}, {@code boolean}
 * @param format      OpenAPI format: {@code name} for the object's name column, {@code date}, or empty
 * @param description what the column shows
 * @param priority    0 for columns always shown, 1 and more for {@code -o wide} only
 * @param cell        the cell value of an object: a String, Number or Boolean, or null; a
 *                    {@link java.time.Instant} is shown as the age since then ({@code 5m}, {@code 3d})
 */
public record TableColumn(String name, String type, String format, String description, int priority,
                          Function<ObjectNode, Object> cell) {

    /** The object's name: the first column of every Table. */
    public static TableColumn nameColumn() {
        return new TableColumn("Name", "string", "name",
                "Name must be unique within a namespace.", 0, o -> o.path("metadata").path("name").asText());
    }

    /**
     * The object's age ({@code 5m}, {@code 3d}), computed by the server when the Table is built.
     * The cell function is not used; the Table builder knows the time.
     */
    public static TableColumn ageColumn() {
        return new TableColumn("Age", "string", "", "CreationTimestamp is a timestamp representing the server time "
                + "when this object was created.", 0, o -> o.path("metadata").path("creationTimestamp").asText(null));
    }

    /** Whether this is the {@link #ageColumn()} column, whose cell the Table builder renders. */
    public boolean isAge() {
        return "Age".equals(name) && format.isEmpty();
    }
}
