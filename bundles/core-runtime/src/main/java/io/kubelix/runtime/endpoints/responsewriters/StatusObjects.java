package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;

/** metav1.Status objects: the body of every error, and of some successful deletes. */
public final class StatusObjects {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private StatusObjects() {
    }

    /** The Failure Status for an error. */
    public static ObjectNode failure(StatusException e) {
        ObjectNode s = base("Failure");
        if (e.continueToken() != null) {
            ((ObjectNode) s.get("metadata")).put("continue", e.continueToken());
        }
        s.put("message", e.getMessage());
        putIfSet(s, "reason", e.reason().wireName());
        StatusException.Details d = e.details();
        if (d != null) {
            ObjectNode details = F.objectNode();
            putIfSet(details, "name", d.name());
            putIfSet(details, "group", d.group());
            putIfSet(details, "kind", d.kind());
            if (!d.causes().isEmpty()) {
                ArrayNode causes = details.putArray("causes");
                for (StatusCause c : d.causes()) {
                    ObjectNode cause = causes.addObject();
                    putIfSet(cause, "reason", c.type());
                    putIfSet(cause, "message", c.message());
                    putIfSet(cause, "field", c.field());
                }
            }
            if (d.retryAfterSeconds() > 0) {
                details.put("retryAfterSeconds", d.retryAfterSeconds());
            }
            // Set details are written even when empty, as kube writes them ("details":{} on a 404 or 405 of a path).
            s.set("details", details);
        }
        s.put("code", e.code());
        return s;
    }

    /** A Success Status naming the object acted on, as kube-apiserver answers a DELETE. */
    public static ObjectNode success(String name, String group, String kind, String uid) {
        ObjectNode s = base("Success");
        ObjectNode details = s.putObject("details");
        putIfSet(details, "name", name);
        putIfSet(details, "group", group);
        putIfSet(details, "kind", kind);
        putIfSet(details, "uid", uid);
        return s;
    }

    private static ObjectNode base(String status) {
        ObjectNode s = F.objectNode();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", status);
        return s;
    }

    private static void putIfSet(ObjectNode n, String field, String value) {
        if (value != null && !value.isEmpty()) {
            n.put(field, value);
        }
    }
}
