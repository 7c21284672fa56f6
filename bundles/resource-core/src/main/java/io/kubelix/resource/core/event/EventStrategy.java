package io.kubelix.resource.core.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.List;

/**
 * The core/v1 Event strategy (pkg/registry/core/event): the legacy validation core/v1 applies,
 * where an event without {@code eventTime} must be in its involved object's namespace (or, for
 * cluster-scoped objects, in {@code default}); updates are not restricted further, for
 * compatibility with old clients, as kube-apiserver does for this version.
 */
final class EventStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validateEvent(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validateEvent(obj);
    }

    static List<FieldError> validateEvent(ObjectNode event) {
        List<FieldError> errs = new ArrayList<>();
        String namespace = event.path("metadata").path("namespace").asText("");
        String involvedNamespace = event.path("involvedObject").path("namespace").asText("");
        if (Nodes.isUnset(event, "eventTime")) {
            boolean matches = involvedNamespace.isEmpty()
                    ? namespace.isEmpty() || namespace.equals("default")
                    : namespace.equals(involvedNamespace);
            if (!matches) {
                errs.add(FieldError.invalid("involvedObject.namespace", involvedNamespace,
                        "does not match event.namespace"));
            }
        } else {
            if (Nodes.text(event, "reportingComponent") == null || Nodes.text(event, "reportingComponent").isEmpty()) {
                errs.add(FieldError.required("reportingComponent", ""));
            }
            if (Nodes.text(event, "reportingInstance") == null || Nodes.text(event, "reportingInstance").isEmpty()) {
                errs.add(FieldError.required("reportingInstance", ""));
            }
            if (Nodes.text(event, "action") == null || Nodes.text(event, "action").isEmpty()) {
                errs.add(FieldError.required("action", ""));
            }
        }
        return errs;
    }

    /** The fields a fieldSelector may name on events (kube's event ToSelectableFields). */
    static String source(ObjectNode event) {
        String component = event.path("source").path("component").asText("");
        return component.isEmpty() ? event.path("reportingComponent").asText("") : component;
    }
}
