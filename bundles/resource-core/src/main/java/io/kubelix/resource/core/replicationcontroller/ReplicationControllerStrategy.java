package io.kubelix.resource.core.replicationcontroller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateDefaults;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.resource.core.common.Specs;

import java.util.List;

/**
 * The ReplicationController strategy (pkg/registry/core/replicationcontroller/strategy.go): a new
 * controller starts with a zero status, every write is defaulted as SetDefaults_ReplicationController
 * does (replicas 1; the selector, and the labels when it has none, from the template's labels; the
 * template's pod defaults), the main resource keeps the stored status, and the object is validated
 * as {@link ReplicationControllerValidation}. The Store bumps the generation on spec changes.
 */
public final class ReplicationControllerStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
        obj.putObject("status").put("replicas", 0);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
        StatusStrategies.resetStatus(obj, old);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return ReplicationControllerValidation.validate(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return ReplicationControllerValidation.validate(obj);
    }

    static void setDefaults(ObjectNode rc) {
        ObjectNode spec = Specs.spec(rc);
        if (spec.get("template") instanceof ObjectNode template) {
            JsonNode labels = template.path("metadata").get("labels");
            if (labels instanceof ObjectNode l) {
                if (spec.path("selector").isEmpty()) {
                    spec.set("selector", l.deepCopy());
                }
                if (rc.get("metadata") instanceof ObjectNode meta && meta.path("labels").isEmpty()) {
                    meta.set("labels", l.deepCopy());
                }
            }
            PodTemplateDefaults.setPodTemplateSpecDefaults(template);
        }
        if (Nodes.isUnset(spec, "replicas")) {
            spec.put("replicas", 1);
        }
    }

    /** {@code replicationcontrollers/status}: only the status changes, and it must be consistent. */
    public static final class Status implements RESTUpdateStrategy {
        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            StatusStrategies.keepOnlyStatus(obj, old);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return ReplicationControllerValidation.validateStatus(obj.path("status"));
        }
    }
}
