package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * The ConfigMap strategy (pkg/registry/core/configmap/strategy.go): nothing to default, kube's
 * validation, and a stored form where {@code binaryData} is canonical base64. Create on update is
 * refused and unconditional updates are allowed, as kube does.
 */
final class ConfigMapStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        DataMap.refuseUndecodable(ctx, obj, "binaryData", "ConfigMap");
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        DataMap.refuseUndecodable(ctx, obj, "binaryData", "ConfigMap");
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return ConfigMapValidation.validate(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return ConfigMapValidation.validateUpdate(obj, old);
    }

    @Override
    public void canonicalize(ObjectNode obj) {
        DataMap.canonicalize(obj, "data", false);
        DataMap.canonicalize(obj, "binaryData", true);
    }
}
