package io.kubelix.resource.core.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.util.List;

/** The server-side Table columns of events, as kube's printEvent (pkg/printers/internalversion/printers.go) defines them. */
final class EventPrinters {

    private EventPrinters() {
    }

    /** kube's printEvent: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE; -o wide adds SUBOBJECT, SOURCE, FIRST SEEN, COUNT, NAME. */
    static List<TableColumn> eventColumns() {
        return List.of(
                new TableColumn("Last Seen", "string", "", "Time when this Event was last seen", 0, EventPrinters::lastSeen),
                new TableColumn("Type", "string", "", "Type of this event (Normal, Warning), new types could be added in "
                        + "the future.", 0, o -> o.path("type").asText("")),
                new TableColumn("Reason", "string", "", "The reason for this event.", 0, o -> o.path("reason").asText("")),
                new TableColumn("Object", "string", "", "The object this Event is about.", 0, EventPrinters::eventTarget),
                new TableColumn("Subobject", "string", "", "The subobject this Event is about.", 1,
                        o -> o.path("involvedObject").path("fieldPath").asText("")),
                new TableColumn("Source", "string", "", "The component reporting this event.", 1, EventPrinters::eventSource),
                new TableColumn("Message", "string", "", "A human-readable description of the status of this operation.", 0,
                        o -> o.path("message").asText("").strip()),
                new TableColumn("First Seen", "string", "", "The time at which the event was first recorded.", 1,
                        EventPrinters::firstSeen),
                new TableColumn("Count", "string", "", "The number of times this event has occurred.", 1,
                        o -> o.path("series").has("count") ? o.path("series").path("count").asLong()
                                : Math.max(1, o.path("count").asLong(0))),
                new TableColumn("Name", "string", "", "Name must be unique within a namespace.", 1,
                        o -> o.path("metadata").path("name").asText("")));
    }

    private static Object firstSeen(ObjectNode o) {
        Object first = timestamp(o.path("firstTimestamp").asText(""));
        return first != null ? first : timestampOrUnknown(o.path("eventTime").asText(""));
    }

    private static Object lastSeen(ObjectNode o) {
        if (o.path("series").has("lastObservedTime")) {
            return timestampOrUnknown(o.path("series").path("lastObservedTime").asText(""));
        }
        Object last = timestamp(o.path("lastTimestamp").asText(""));
        return last != null ? last : firstSeen(o);
    }

    private static String eventTarget(ObjectNode o) {
        String kind = o.path("involvedObject").path("kind").asText("").toLowerCase(java.util.Locale.ROOT);
        String name = o.path("involvedObject").path("name").asText("");
        return name.isEmpty() ? kind : kind + "/" + name;
    }

    private static String eventSource(ObjectNode o) {
        String component = EventStrategy.source(o);
        String host = o.path("source").path("host").asText("");
        String instance = host.isEmpty() ? o.path("reportingInstance").asText("") : host;
        return instance.isEmpty() ? component : component + ", " + instance;
    }

    /** A timestamp as an Instant (the Table shows its age), or null when unset or unreadable. */
    private static java.time.Instant timestamp(String value) {
        if (value.isEmpty()) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(value).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    private static Object timestampOrUnknown(String value) {
        java.time.Instant t = timestamp(value);
        return t != null ? t : "<unknown>";
    }
}
