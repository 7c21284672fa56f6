package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * kube's svcStrategy (pkg/registry/core/service/strategy.go): a new service starts with an empty
 * status and kube's defaults; an update keeps the stored status and the allocated values a PUT left
 * out, drops the ones its new type no longer uses, and is validated against the stored object. PUT
 * may create, as kube allows for services. Allocation itself happens around the Store, in
 * {@link ServiceREST}.
 */
final class ServiceStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final String clusterFamily;

    /** @param clusterFamily the family of the service IP range, {@code IPv4} or {@code IPv6} */
    ServiceStrategy(String clusterFamily) {
        this.clusterFamily = clusterFamily;
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ServiceDefaults.resetStatus(obj);
        ServiceDefaults.apply(obj, clusterFamily);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return ServiceValidation.validate(obj, clusterFamily);
    }

    @Override
    public boolean allowCreateOnUpdate() {
        return true;
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
        ServiceDefaults.applyUpdate(obj, old, clusterFamily);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return ServiceValidation.validateUpdate(obj, old, clusterFamily);
    }
}
