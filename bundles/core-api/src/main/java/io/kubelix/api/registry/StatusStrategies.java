package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The two halves of a resource with a status subresource, as kube's strategies write them in
 * PrepareForUpdate: the main resource keeps the stored status, the status subresource keeps
 * everything but the status.
 */
public final class StatusStrategies {

    private StatusStrategies() {
    }

    /**
     * For the main resource's {@link RESTUpdateStrategy#prepareForUpdate}: {@code obj} gets the
     * status of {@code old} (or none when {@code old} has none), so PUT and PATCH cannot change it.
     */
    public static void resetStatus(ObjectNode obj, ObjectNode old) {
        JsonNode status = old.get("status");
        if (status == null) {
            obj.remove("status");
        } else {
            obj.set("status", status.deepCopy());
        }
    }

    /**
     * For a status strategy's {@link RESTUpdateStrategy#prepareForUpdate}, as kube's custom
     * resource status strategy: {@code obj} becomes a copy of {@code old} with the status of
     * {@code obj}; metadata, spec and every other field keep their stored values. The
     * resourceVersion is kept from {@code obj}: the Store has already checked it against the
     * stored one.
     */
    public static void keepOnlyStatus(ObjectNode obj, ObjectNode old) {
        JsonNode status = obj.get("status");
        JsonNode resourceVersion = obj.path("metadata").get("resourceVersion");
        obj.removeAll();
        obj.setAll(old.deepCopy());
        if (status == null) {
            obj.remove("status");
        } else {
            obj.set("status", status);
        }
        if (resourceVersion != null && obj.get("metadata") instanceof ObjectNode meta) {
            meta.set("resourceVersion", resourceVersion);
        }
    }
}
