package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.registry.TableColumn;

import java.util.List;

/** kube's printers of the flowcontrol kinds (pkg/printers/internalversion): their columns and cells. */
final class FlowcontrolPrinters {
    private static final String NONE = "<none>";

    private FlowcontrolPrinters() {
    }

    /**
     * NAME, PRIORITYLEVEL, MATCHINGPRECEDENCE, DISTINGUISHERMETHOD, AGE, MISSINGPL. MISSINGPL is the status
     * of the schema's {@code Dangling} condition, {@code ?} until a controller has written one.
     */
    static List<TableColumn> flowSchemaColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("PriorityLevel", "string", "", "The name of the priority level configuration this "
                        + "schema's requests are assigned to.", 0,
                        o -> o.path("spec").path("priorityLevelConfiguration").path("name").asText("")),
                new TableColumn("MatchingPrecedence", "string", "", "Where this schema comes among the schemas "
                        + "matching a request: the lowest value wins.", 0,
                        o -> o.path("spec").path("matchingPrecedence").asLong(0)),
                new TableColumn("DistinguisherMethod", "string", "", "How a request's flow is told apart: by user, "
                        + "by namespace, or not at all.", 0,
                        o -> o.path("spec").path("distinguisherMethod").path("type").asText(NONE)),
                TableColumn.ageColumn(),
                new TableColumn("MissingPL", "string", "", "references a broken or non-existent "
                        + "PriorityLevelConfiguration", 0, FlowcontrolPrinters::missingPriorityLevel));
    }

    private static Object missingPriorityLevel(JsonNode fs) {
        for (JsonNode condition : fs.path("status").path("conditions")) {
            if ("Dangling".equals(condition.path("type").asText())) {
                return condition.path("status").asText("");
            }
        }
        return "?";
    }

    /**
     * NAME, TYPE, NOMINALCONCURRENCYSHARES, QUEUES, HANDSIZE, QUEUELENGTHLIMIT, AGE; an exempt level, and a
     * level that rejects rather than queues, show {@code <none>} where they have no value.
     */
    static List<TableColumn> priorityLevelColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Type", "string", "", "Whether this level's requests are limited (Limited) or "
                        + "never queued nor counted (Exempt).", 0, o -> o.path("spec").path("type").asText("")),
                new TableColumn("NominalConcurrencyShares", "string", "", "This level's share of the server's "
                        + "concurrency limit.", 0, o -> limited(o, "nominalConcurrencyShares")),
                new TableColumn("Queues", "string", "", "The number of queues of this level.", 0,
                        o -> queuing(o, "queues")),
                new TableColumn("HandSize", "string", "", "The number of queues a flow's requests are shuffle-"
                        + "sharded among.", 0, o -> queuing(o, "handSize")),
                new TableColumn("QueueLengthLimit", "string", "", "How many requests may wait in one queue.", 0,
                        o -> queuing(o, "queueLengthLimit")),
                TableColumn.ageColumn());
    }

    private static Object limited(JsonNode pl, String field) {
        JsonNode limited = pl.path("spec").path("limited");
        return limited.isObject() ? (Object) limited.path(field).asLong(0) : NONE;
    }

    private static Object queuing(JsonNode pl, String field) {
        JsonNode queuing = pl.path("spec").path("limited").path("limitResponse").path("queuing");
        return queuing.isObject() ? (Object) queuing.path(field).asLong(0) : NONE;
    }
}
