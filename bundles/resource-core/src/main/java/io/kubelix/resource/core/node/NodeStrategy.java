package io.kubelix.resource.core.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Specs;

import java.util.List;

/**
 * The Node strategy (pkg/registry/core/node/strategy.go): a node may be created with its status,
 * as kubelets register; later writes of the main resource keep the stored status; the spec's
 * {@code podCIDR} and {@code podCIDRs} are kept in step as the v1 conversion does; validation as
 * {@link NodeValidation}.
 */
public final class NodeStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        NodeValidation.syncPodCIDR(spec(obj));
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        NodeValidation.syncPodCIDR(spec(obj));
        StatusStrategies.resetStatus(obj, old);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return NodeValidation.validate(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return NodeValidation.validateUpdate(obj, old);
    }

    private static ObjectNode spec(ObjectNode obj) {
        return Specs.spec(obj);
    }

    /** {@code nodes/status} (kube's nodeStatusStrategy): only the status changes, and the node is validated as on update. */
    public static final class Status implements RESTUpdateStrategy {
        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            StatusStrategies.keepOnlyStatus(obj, old);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return NodeValidation.validateUpdate(obj, old);
        }
    }
}
