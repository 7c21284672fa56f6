package io.kubelix.resource.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/** The {@code volumeattachments/status} strategy: only the status changes, validated as on update. */
final class VolumeAttachmentStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return VolumeAttachmentStrategy.validateUpdate(obj, old);
    }
}
