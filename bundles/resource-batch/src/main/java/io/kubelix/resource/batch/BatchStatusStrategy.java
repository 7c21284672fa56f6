package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The update strategy of a job's or cronjob's {@code status} subresource (kube's jobStatusStrategy
 * and cronJobStatusStrategy): only the status changes; a job's counters may not be negative.
 */
final class BatchStatusStrategy implements RESTUpdateStrategy {
    private static final String[] JOB_COUNTERS = {"active", "succeeded", "failed", "terminating", "ready"};

    private final boolean job;

    private BatchStatusStrategy(boolean job) {
        this.job = job;
    }

    static BatchStatusStrategy job() {
        return new BatchStatusStrategy(true);
    }

    static BatchStatusStrategy cronJob() {
        return new BatchStatusStrategy(false);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        if (job) {
            JsonNode status = obj.path("status");
            for (String f : JOB_COUNTERS) {
                errs.addAll(JobValidation.nonnegative(status, f, "status"));
            }
        }
        return errs;
    }
}
