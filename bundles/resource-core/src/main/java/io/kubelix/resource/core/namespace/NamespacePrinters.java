package io.kubelix.resource.core.namespace;

import io.kubelix.api.registry.TableColumn;

import java.util.List;

/** The server-side Table columns of namespaces, as kube's printNamespace defines them. */
final class NamespacePrinters {

    private NamespacePrinters() {
    }

    /** NAME, STATUS (status.phase), AGE. */
    static List<TableColumn> namespaceColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Status", "string", "", "The status of the namespace", 0,
                        o -> o.path("status").path("phase").asText("")),
                TableColumn.ageColumn());
    }
}
