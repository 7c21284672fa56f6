package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's controllerrevision strategy: {@code data} is mandatory and immutable, {@code revision}
 * non-negative. ControllerRevisions have no spec, status or generation.
 */
final class ControllerRevisionStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode data = obj.get("data");
        if (data == null || data.isNull()) {
            errs.add(FieldError.required("data", "data is mandatory"));
        }
        errs.addAll(MetadataValidators.validateNonnegative(obj.path("revision").asLong(0), "revision"));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = validate(ctx, obj);
        JsonNode data = obj.get("data");
        if (data != null && !data.equals(old.get("data"))) {
            errs.add(FieldError.invalid("data", new GoSyntax("runtime.RawExtension{Raw:" + data + "}"),
                    WorkloadValidation.IMMUTABLE));
        }
        return errs;
    }
}
