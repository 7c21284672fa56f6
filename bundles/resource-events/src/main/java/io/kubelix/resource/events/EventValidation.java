package io.kubelix.resource.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * kube's Event validation for writes through events.k8s.io/v1 (pkg/apis/core/validation/events.go),
 * run on the stored core/v1 form as kube runs it on the internal one, so the field paths are core's
 * ({@code involvedObject.namespace}, {@code firstTimestamp}...) except {@code reportingController}.
 * The legacy rules apply to every event; the strict ones (an {@code eventTime}, a Normal or Warning
 * type, no deprecated fields; most fields immutable) to this API only, as kube keeps core/v1 lenient.
 */
final class EventValidation {
    static final int REPORTING_INSTANCE_LIMIT = 128;
    static final int ACTION_LIMIT = 128;
    static final int REASON_LIMIT = 128;
    static final int NOTE_LIMIT = 1024;

    private EventValidation() {
    }

    static List<FieldError> validateCreate(ObjectNode event) {
        List<FieldError> errs = legacy(event);
        errs.addAll(series(event));
        if (unset(event, "eventTime")) {
            errs.add(FieldError.required("eventTime", ""));
        }
        String type = event.path("type").asText("");
        if (!type.equals("Normal") && !type.equals("Warning")) {
            errs.add(FieldError.invalid("type", "", "has invalid value: " + type));
        }
        for (String deprecated : new String[] {"firstTimestamp", "lastTimestamp"}) {
            if (!unset(event, deprecated)) {
                errs.add(FieldError.invalid(deprecated, "", "needs to be unset"));
            }
        }
        if (event.path("count").asLong(0) != 0) {
            errs.add(FieldError.invalid("count", "", "needs to be unset"));
        }
        if (!event.path("source").path("component").asText("").isEmpty()
                || !event.path("source").path("host").asText("").isEmpty()) {
            errs.add(FieldError.invalid("source", "", "needs to be unset"));
        }
        return errs;
    }

    static List<FieldError> validateUpdate(ObjectNode event, ObjectNode old) {
        List<FieldError> errs = legacy(event);
        if (!Objects.equals(event.get("series"), old.get("series"))) {
            errs.addAll(series(event));
        }
        for (String field : new String[] {"involvedObject", "reason", "message", "source", "firstTimestamp",
                "lastTimestamp", "count", "type", "eventTime", "action", "related", "reportingComponent",
                "reportingInstance"}) {
            JsonNode now = zeroAsMissing(event.path(field));
            if (!now.equals(zeroAsMissing(old.path(field)))) {
                String path = field.equals("reportingComponent") ? "reportingController" : field;
                errs.add(FieldError.invalid(path, goValue(event.path(field)), "field is immutable"));
            }
        }
        return errs;
    }

    /** legacyValidateEvent, as kube names the reporting controller outside core/v1. */
    private static List<FieldError> legacy(ObjectNode event) {
        List<FieldError> errs = new ArrayList<>();
        String namespace = event.path("metadata").path("namespace").asText("");
        String involvedNamespace = event.path("involvedObject").path("namespace").asText("");
        if (unset(event, "eventTime")) {
            boolean matches = involvedNamespace.isEmpty() ? namespace.isEmpty() || namespace.equals("default")
                    : namespace.equals(involvedNamespace);
            if (!matches) {
                errs.add(FieldError.invalid("involvedObject.namespace", involvedNamespace, "does not match event.namespace"));
            }
        } else {
            if (involvedNamespace.isEmpty() && !namespace.equals("default") && !namespace.equals("kube-system")) {
                errs.add(FieldError.invalid("involvedObject.namespace", involvedNamespace, "does not match event.namespace"));
            }
            String controller = event.path("reportingComponent").asText("");
            if (controller.isEmpty()) {
                errs.add(FieldError.required("reportingController", ""));
            }
            NameValidators.isQualifiedName(controller).forEach(m -> errs.add(FieldError.invalid("reportingController",
                    controller, m)));
            limited(errs, event, "reportingInstance", REPORTING_INSTANCE_LIMIT, true);
            limited(errs, event, "action", ACTION_LIMIT, true);
            limited(errs, event, "reason", REASON_LIMIT, true);
            limited(errs, event, "message", NOTE_LIMIT, false);
        }
        NameValidators.isDNS1123Subdomain(namespace).forEach(m -> errs.add(FieldError.invalid("namespace", namespace, m)));
        return errs;
    }

    private static void limited(List<FieldError> errs, ObjectNode event, String field, int limit, boolean required) {
        String value = event.path(field).asText("");
        if (required && value.isEmpty()) {
            errs.add(FieldError.required(field, ""));
        }
        if (value.length() > limit) {
            errs.add(FieldError.invalid(field, "", "can have at most " + limit + " characters"));
        }
    }

    /** validateV1EventSeries. */
    private static List<FieldError> series(ObjectNode event) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode series = event.get("series");
        if (series != null && series.isObject()) {
            if (series.path("count").asLong(0) < 2) {
                errs.add(FieldError.invalid("series.count", "", "should be at least 2"));
            }
            if (unset(series, "lastObservedTime")) {
                errs.add(FieldError.required("series.lastObservedTime", ""));
            }
        }
        return errs;
    }

    private static boolean unset(JsonNode parent, String field) {
        JsonNode v = parent.get(field);
        return v == null || v.isNull() || v.isTextual() && v.asText().isEmpty();
    }

    /** Go's zero values (absent, null, "", 0, {}) compare equal, as they decode alike. */
    private static JsonNode zeroAsMissing(JsonNode v) {
        boolean zero = v.isMissingNode() || v.isNull() || v.isTextual() && v.asText().isEmpty()
                || v.isNumber() && v.asLong() == 0 || v.isContainerNode() && v.isEmpty();
        return zero ? MissingNode.getInstance() : v;
    }

    /** The value as kube's message prints it: a string quoted, a number as is, a structure as JSON. */
    private static Object goValue(JsonNode v) {
        if (v.isTextual()) {
            return v.asText();
        }
        if (v.isNumber()) {
            return v.asLong();
        }
        return new GoSyntax(v.isMissingNode() ? "null" : v.toString());
    }
}
