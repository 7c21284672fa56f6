package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * kube's cronJobStrategy: a new cronjob starts with an empty status, every write is defaulted,
 * the main resource keeps the stored status, and the cronjob is validated as kube validates it.
 */
final class CronJobStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.putObject("status");
        BatchDefaults.cronJob(BatchSpecs.spec(obj));
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return CronJobValidation.create(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
        BatchDefaults.cronJob(BatchSpecs.spec(obj));
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return CronJobValidation.update(obj, old);
    }
}
