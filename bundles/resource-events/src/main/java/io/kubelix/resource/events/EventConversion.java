package io.kubelix.resource.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StorageConversion;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The conversion between events.k8s.io/v1 and the stored core/v1 Event (kube's
 * Convert_v1_Event_To_core_Event and back): {@code regarding} is {@code involvedObject},
 * {@code note} is {@code message}, {@code reportingController} is {@code reportingComponent},
 * {@code deprecatedSource}, {@code deprecatedFirstTimestamp}, {@code deprecatedLastTimestamp} and
 * {@code deprecatedCount} are {@code source}, {@code firstTimestamp}, {@code lastTimestamp} and
 * {@code count}; every other field has the same name in both.
 */
final class EventConversion implements StorageConversion {
    /** events.k8s.io/v1 field → core/v1 field, for the fields named differently. */
    static final Map<String, String> RENAMED = Map.of(
            "regarding", "involvedObject",
            "note", "message",
            "reportingController", "reportingComponent",
            "deprecatedSource", "source",
            "deprecatedFirstTimestamp", "firstTimestamp",
            "deprecatedLastTimestamp", "lastTimestamp",
            "deprecatedCount", "count");
    private static final Map<String, String> CORE_TO_EVENTS = inverse();

    @Override
    public ObjectNode toStorage(ObjectNode event) {
        return renamed(event, RENAMED, "v1");
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        ObjectNode event = renamed(stored, CORE_TO_EVENTS, "events.k8s.io/v1");
        if (!event.has("eventTime")) {
            event.putNull("eventTime"); // a zero MicroTime, which kube's events.k8s.io/v1 Event always writes
        }
        return event;
    }

    /** A copy of {@code obj} with its fields renamed by {@code names}, in their order, typed as {@code apiVersion} Event. */
    private static ObjectNode renamed(ObjectNode obj, Map<String, String> names, String apiVersion) {
        ObjectNode out = obj.objectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", "Event");
        for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
                out.set(names.getOrDefault(e.getKey(), e.getKey()), e.getValue().deepCopy());
            }
        }
        return out;
    }

    private static Map<String, String> inverse() {
        Map<String, String> out = new HashMap<>();
        RENAMED.forEach((events, core) -> out.put(core, events));
        return Map.copyOf(out);
    }
}
