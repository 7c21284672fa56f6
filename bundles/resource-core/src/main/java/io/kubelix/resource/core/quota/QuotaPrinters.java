package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.resource.core.common.Quantities;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** The Table columns of resource quotas and limit ranges, as kube's printResourceQuota and printLimitRange fill them. */
final class QuotaPrinters {

    private QuotaPrinters() {
    }

    /** NAME, AGE, REQUEST, LIMIT: {@code resource: used/hard} for each resource in {@code status.hard}. */
    static List<TableColumn> resourceQuotaColumns() {
        return List.of(TableColumn.nameColumn(),
                TableColumn.ageColumn(),
                new TableColumn("Request", "string", "", "Request represents a minimum amount of cpu/memory that a "
                        + "container may consume.", 0, o -> usage(o, false)),
                new TableColumn("Limit", "string", "", "Limits control the maximum amount of cpu/memory that a "
                        + "container may use independent of contention on the node.", 0, o -> usage(o, true)));
    }

    /** NAME, CREATED AT. */
    static List<TableColumn> limitRangeColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Created At", "date", "", "CreationTimestamp is a timestamp representing the server "
                        + "time when this object was created.", 0,
                        o -> o.path("metadata").path("creationTimestamp").asText("")));
    }

    /** The {@code resource: used/hard} pairs of the limits (or of everything else), sorted by resource. */
    static String usage(ObjectNode quota, boolean limits) {
        JsonNode hard = quota.path("status").path("hard");
        JsonNode used = quota.path("status").path("used");
        List<String> pairs = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>();
        hard.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            if (name.startsWith("limits") == limits) {
                pairs.add(name + ": " + Quantities.text(used.get(name)) + "/" + Quantities.text(hard.get(name)));
            }
        }
        return String.join(", ", pairs);
    }
}
