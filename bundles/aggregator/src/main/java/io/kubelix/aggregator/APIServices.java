package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.server.DiscoverySource;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** What the aggregator reads and writes of an APIService object (kube-aggregator's apiregistration helpers). */
final class APIServices {
    static final String GROUP = "apiregistration.k8s.io";
    static final String VERSION = "v1";
    static final String AVAILABLE = "Available";

    private APIServices() {
    }

    /** {@code spec.service}, or null for a local APIService (served in-process). */
    static JsonNode service(ObjectNode apiService) {
        JsonNode service = apiService.path("spec").get("service");
        return service == null || service.isNull() ? null : service;
    }

    /** The {@code Available} condition, or null when there is none. */
    static JsonNode availableCondition(JsonNode apiService) {
        for (JsonNode c : apiService.path("status").path("conditions")) {
            if (AVAILABLE.equals(c.path("type").asText())) {
                return c;
            }
        }
        return null;
    }

    /**
     * Sets the {@code Available} condition (SetAPIServiceCondition): the transition time changes only
     * when the status does.
     */
    static void setAvailable(ObjectNode apiService, String status, String reason, String message, Instant now) {
        ObjectNode statusNode = apiService.with("status");
        ArrayNode conditions = statusNode.withArray("conditions");
        ObjectNode condition = null;
        for (JsonNode c : conditions) {
            if (AVAILABLE.equals(c.path("type").asText()) && c instanceof ObjectNode o) {
                condition = o;
            }
        }
        if (condition == null) {
            condition = conditions.addObject();
            condition.put("type", AVAILABLE);
        }
        if (!status.equals(condition.path("status").asText()) || !condition.has("lastTransitionTime")) {
            condition.put("lastTransitionTime", now.truncatedTo(ChronoUnit.SECONDS).toString());
        }
        condition.put("status", status);
        condition.put("reason", reason);
        condition.put("message", message);
    }

    /** The discovery priorities an APIService gives its group version. */
    static DiscoverySource.Priority priority(JsonNode apiService) {
        JsonNode spec = apiService.path("spec");
        return new DiscoverySource.Priority(spec.path("group").asText(""), spec.path("version").asText(""),
                spec.path("groupPriorityMinimum").asInt(), spec.path("versionPriority").asInt());
    }
}
