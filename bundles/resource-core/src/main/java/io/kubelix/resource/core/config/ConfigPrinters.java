package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.resource.core.common.Nodes;

import java.util.List;

/**
 * The server-side Table columns of configmaps and secrets, as kube's printers (pkg/printers/
 * internalversion/printers.go) define them. Kube declares the DATA columns as {@code string} yet
 * fills them with an int64; the same is done here so {@code kubectl get} output is identical.
 */
final class ConfigPrinters {
    static final String SECRET_TYPE_DESCRIPTION = "Used to facilitate programmatic handling of secret data. "
            + "More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types";
    static final String SECRET_DATA_DESCRIPTION = "Data contains the secret data. Each key must consist of "
            + "alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded "
            + "string, representing the arbitrary (possibly non-string) data value here. Described in "
            + "https://tools.ietf.org/html/rfc4648#section-4";
    static final String CONFIGMAP_DATA_DESCRIPTION = "Data contains the configuration data. Each key must consist "
            + "of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the "
            + "BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, "
            + "this is enforced during validation process.";

    private ConfigPrinters() {
    }

    /** NAME, DATA (number of data and binaryData keys), AGE. */
    static List<TableColumn> configMapColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Data", "string", "", CONFIGMAP_DATA_DESCRIPTION, 0,
                        o -> count(o, "data") + count(o, "binaryData")),
                TableColumn.ageColumn());
    }

    /** NAME, TYPE, DATA (number of data keys), AGE. */
    static List<TableColumn> secretColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Type", "string", "", SECRET_TYPE_DESCRIPTION, 0, o -> Nodes.text(o, "type")),
                new TableColumn("Data", "string", "", SECRET_DATA_DESCRIPTION, 0, o -> count(o, "data")),
                TableColumn.ageColumn());
    }

    /** The number of keys of a map field, as the int64 kube's printer puts in the cell. */
    private static long count(ObjectNode o, String field) {
        ObjectNode map = Nodes.object(o, field);
        return map == null ? 0L : map.size();
    }
}
