package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;

import java.util.List;

/**
 * The Namespace strategy (pkg/registry/core/namespace/strategy.go). A new namespace is Active and
 * carries the {@code kubernetes} finalizer; clients cannot change {@code status} or
 * {@code spec.finalizers} by update (kube changes them through {@code namespaces/status}, see
 * {@link NamespaceStatusStrategy}, and the finalize subresource, which this first cut does not
 * serve); every namespace carries the
 * {@code kubernetes.io/metadata.name} label equal to its name.
 */
final class NamespaceStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final String PHASE_ACTIVE = "Active";
    static final String PHASE_TERMINATING = "Terminating";
    static final String LABEL_METADATA_NAME = "kubernetes.io/metadata.name";

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.putObject("status").put("phase", PHASE_ACTIVE);
        JsonNode spec = obj.get("spec");
        if (spec == null || spec.isNull()) {
            spec = obj.putObject("spec");
        }
        if (!(spec instanceof ObjectNode specObject)) {
            return; // not an object: validation reports it
        }
        JsonNode finalizers = specObject.get("finalizers");
        if (finalizers == null || finalizers.isNull()) {
            specObject.putArray("finalizers").add(NamespaceValidation.FINALIZER_KUBERNETES);
        } else if (finalizers instanceof ArrayNode list && !contains(list, NamespaceValidation.FINALIZER_KUBERNETES)) {
            list.add(NamespaceValidation.FINALIZER_KUBERNETES);
        }
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        JsonNode oldFinalizers = old.path("spec").get("finalizers");
        JsonNode spec = obj.get("spec");
        if (!(spec instanceof ObjectNode)) {
            spec = obj.putObject("spec");
        }
        ObjectNode specObject = (ObjectNode) spec;
        if (oldFinalizers == null) {
            specObject.remove("finalizers");
        } else {
            specObject.set("finalizers", oldFinalizers.deepCopy());
        }
        JsonNode oldStatus = old.get("status");
        if (oldStatus == null) {
            obj.remove("status");
        } else {
            obj.set("status", oldStatus.deepCopy());
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return NamespaceValidation.validate(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return NamespaceValidation.validate(obj);
    }

    /**
     * The name label is set here rather than in prepareForCreate because a name from
     * generateName is only known after it, and because an update must not remove it.
     */
    @Override
    public void canonicalize(ObjectNode obj) {
        String name = Nodes.name(obj);
        if (name.isEmpty() || !(obj.get("metadata") instanceof ObjectNode metadata)) {
            return;
        }
        JsonNode labels = metadata.get("labels");
        ObjectNode labelsObject = labels instanceof ObjectNode o ? o : metadata.putObject("labels");
        labelsObject.put(LABEL_METADATA_NAME, name);
    }

    private static boolean contains(ArrayNode list, String value) {
        for (JsonNode e : list) {
            if (e.isTextual() && e.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}
