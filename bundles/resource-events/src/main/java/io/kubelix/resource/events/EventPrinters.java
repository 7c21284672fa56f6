package io.kubelix.resource.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The event Table kube serves for events.k8s.io/v1 (the core Event printer): LAST SEEN, TYPE,
 * REASON, OBJECT, MESSAGE, and with {@code -o wide} SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME,
 * read from the events.k8s.io fields.
 */
final class EventPrinters {
    static final String UNKNOWN = "<unknown>";

    private EventPrinters() {
    }

    static List<TableColumn> columns() {
        return List.of(
                column("Last Seen", 0, "Time when this Event was last seen", EventPrinters::lastSeen),
                column("Type", 0, "Type of this event (Normal, Warning), new types could be added in the future.",
                        o -> o.path("type").asText("")),
                column("Reason", 0, "The reason for this event.", o -> o.path("reason").asText("")),
                column("Object", 0, "The object this Event is about.", EventPrinters::object),
                column("Subobject", 1, "The part of the object this Event is about.",
                        o -> o.path("regarding").path("fieldPath").asText("")),
                column("Source", 1, "The component reporting this event.", EventPrinters::source),
                column("Message", 0, "A human-readable description of the status of this operation.",
                        o -> o.path("note").asText("").strip()),
                column("First Seen", 1, "The time at which the event was first recorded.", EventPrinters::firstSeen),
                column("Count", 1, "The number of times this event has occurred.", EventPrinters::count),
                new TableColumn("Name", "string", "name", "Name must be unique within a namespace.", 1,
                        o -> o.path("metadata").path("name").asText("")));
    }

    private static TableColumn column(String name, int priority, String description,
                                      Function<ObjectNode, Object> cell) {
        return new TableColumn(name, "string", "", description, priority, cell);
    }

    static Object firstSeen(ObjectNode o) {
        Instant first = time(o.path("deprecatedFirstTimestamp"));
        if (first == null) {
            first = time(o.path("eventTime"));
        }
        return first == null ? UNKNOWN : first;
    }

    static Object lastSeen(ObjectNode o) {
        if (o.path("series").isObject()) {
            Instant observed = time(o.path("series").path("lastObservedTime"));
            return observed == null ? UNKNOWN : observed;
        }
        Instant last = time(o.path("deprecatedLastTimestamp"));
        return last == null ? firstSeen(o) : last;
    }

    static long count(ObjectNode o) {
        if (o.path("series").isObject()) {
            return o.path("series").path("count").asLong(0);
        }
        long count = o.path("deprecatedCount").asLong(0);
        return count == 0 ? 1 : count;
    }

    private static String object(ObjectNode o) {
        String kind = o.path("regarding").path("kind").asText("").toLowerCase(Locale.ROOT);
        String name = o.path("regarding").path("name").asText("");
        return name.isEmpty() ? kind : kind + "/" + name;
    }

    private static String source(ObjectNode o) {
        String component = o.path("deprecatedSource").path("component").asText("");
        String host = o.path("deprecatedSource").path("host").asText("");
        component = component.isEmpty() ? o.path("reportingController").asText("") : component;
        host = host.isEmpty() ? o.path("reportingInstance").asText("") : host;
        return host.isEmpty() ? component : component + ", " + host;
    }

    /** A timestamp as an Instant (the Table shows its age), or null when unset or unreadable. */
    private static Instant time(JsonNode value) {
        if (!value.isTextual() || value.asText().isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value.asText()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
