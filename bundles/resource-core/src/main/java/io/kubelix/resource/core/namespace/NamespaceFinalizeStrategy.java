package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * The update strategy of {@code namespaces/finalize} (kube's namespaceFinalizeStrategy): only
 * {@code spec.finalizers} is taken from the client, everything else keeps its stored value. The
 * namespace controller uses it to remove {@code kubernetes} once a deleted namespace is empty.
 */
public final class NamespaceFinalizeStrategy implements RESTUpdateStrategy {

    @Override
    public boolean allowUnconditionalUpdate() {
        return true;
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        JsonNode finalizers = obj.path("spec").get("finalizers");
        ObjectNode kept = old.deepCopy();
        obj.removeAll();
        obj.setAll(kept);
        JsonNode spec = obj.get("spec");
        ObjectNode specObject = spec instanceof ObjectNode o ? o : obj.putObject("spec");
        if (finalizers == null || finalizers.isNull()) {
            specObject.remove("finalizers");
        } else {
            specObject.set("finalizers", finalizers.deepCopy());
        }
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return NamespaceValidation.validate(obj);
    }
}
