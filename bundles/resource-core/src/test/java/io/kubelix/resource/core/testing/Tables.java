package io.kubelix.resource.core.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;

import java.util.List;

/** Test helper: reads the Table columns that the printers and Store specs declare. */
public final class Tables {

    private Tables() {
    }

    /** The columns' names, in order. */
    public static List<String> headers(List<TableColumn> columns) {
        return columns.stream().map(TableColumn::name).toList();
    }

    /** The names of a Store's columns, in order. */
    public static List<String> headers(StoreSpec spec) {
        return headers(spec.tableColumns());
    }

    /** The cell of the column named {@code name} for the object. */
    public static Object cell(List<TableColumn> columns, String name, ObjectNode o) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow().cell().apply(o);
    }
}
