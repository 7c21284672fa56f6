package io.kubelix.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.validation.CrdValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTDeleteStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;
import java.util.Locale;

/**
 * The CustomResourceDefinition strategy (kube's customresourcedefinition strategy with the v1
 * defaults): the status is the server's (reset on create, kept on update), the storage version is
 * added to {@code status.storedVersions}, the generation follows the spec, and {@code spec.names}
 * get their singular and list kind, {@code spec.conversion} the {@code None} strategy and a
 * webhook service port 443 when not given.
 */
final class CrdStrategy implements RESTCreateStrategy, RESTUpdateStrategy, RESTDeleteStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.remove("status");
        setDefaults(obj);
        ObjectNode status = obj.putObject("status");
        addStoredVersion(status, Crds.storageVersion(obj));
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
        StatusStrategies.resetStatus(obj, old);
        if (!obj.has("status")) {
            obj.putObject("status");
        }
        addStoredVersion((ObjectNode) obj.get("status"), Crds.storageVersion(obj));
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return CrdValidation.validate(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return CrdValidation.validateUpdate(obj, old);
    }

    /**
     * A CRD not yet being deleted always has a pending finalizer: kube's CRD REST.Delete never
     * removes one at once, it marks it for the finalizing controller.
     */
    @Override
    public boolean hasPendingFinalizers(ObjectNode obj) {
        return obj.path("metadata").path("deletionTimestamp").isMissingNode()
                || obj.path("metadata").path("deletionTimestamp").isNull();
    }

    /**
     * kube's CRD REST.Delete: the CRD gets the {@code customresourcecleanup.apiextensions.k8s.io}
     * finalizer and the {@code Terminating} condition; the finalizing controller deletes its custom
     * resources and then takes the finalizer away.
     */
    @Override
    public void prepareForDeletion(ObjectNode obj) {
        ObjectNode meta = (ObjectNode) obj.get("metadata");
        ArrayNode finalizers = meta.get("finalizers") instanceof ArrayNode a ? a : meta.putArray("finalizers");
        boolean present = false;
        for (JsonNode f : finalizers) {
            present |= Crds.CLEANUP_FINALIZER.equals(f.asText());
        }
        if (!present) {
            finalizers.add(Crds.CLEANUP_FINALIZER);
        }
        Crds.setCondition(obj, Crds.TERMINATING, "True", "InstanceDeletionPending",
                "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon");
    }

    /** kube's SetDefaults_CustomResourceDefinitionSpec and SetDefaults_ServiceReference. */
    static void setDefaults(ObjectNode crd) {
        if (!(crd.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        if (spec.get("names") instanceof ObjectNode names) {
            String kind = names.path("kind").asText("");
            if (names.path("singular").asText("").isEmpty()) {
                names.put("singular", kind.toLowerCase(Locale.ROOT));
            }
            if (names.path("listKind").asText("").isEmpty() && !kind.isEmpty()) {
                names.put("listKind", kind + "List");
            }
        }
        if (!spec.path("conversion").isObject()) {
            spec.putObject("conversion").put("strategy", "None");
        }
        JsonNode service = spec.path("conversion").path("webhook").path("clientConfig").path("service");
        if (service instanceof ObjectNode s && !s.hasNonNull("port")) {
            s.put("port", 443);
        }
    }

    private static void addStoredVersion(ObjectNode status, String storage) {
        if (storage == null) {
            return;
        }
        ArrayNode stored = status.get("storedVersions") instanceof ArrayNode a ? a : status.putArray("storedVersions");
        for (JsonNode v : stored) {
            if (storage.equals(v.asText())) {
                return;
            }
        }
        stored.add(storage);
    }
}
