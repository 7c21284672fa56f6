package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's validation of the workloads' status (ValidateDeploymentStatus, ValidateReplicaSetStatus,
 * ValidateStatefulSetStatus, validateDaemonSetStatus), which a {@code <resource>/status} update
 * must pass: counts are non-negative, and none exceeds the replicas they are part of.
 */
final class StatusValidation {
    private static final String GREATER_THAN_REPLICAS = "cannot be greater than status.replicas";

    private StatusValidation() {
    }

    static List<FieldError> deployment(JsonNode status) {
        List<FieldError> errs = nonnegative(status, "observedGeneration", "replicas", "updatedReplicas", "readyReplicas",
                "availableReplicas", "unavailableReplicas", "collisionCount");
        notGreater(status, "updatedReplicas", "replicas", GREATER_THAN_REPLICAS, errs);
        notGreater(status, "readyReplicas", "replicas", GREATER_THAN_REPLICAS, errs);
        notGreater(status, "availableReplicas", "replicas", GREATER_THAN_REPLICAS, errs);
        notGreater(status, "availableReplicas", "readyReplicas", "cannot be greater than readyReplicas", errs);
        return errs;
    }

    static List<FieldError> replicaSet(JsonNode status) {
        List<FieldError> errs = nonnegative(status, "replicas", "fullyLabeledReplicas", "readyReplicas",
                "availableReplicas", "observedGeneration");
        notGreater(status, "fullyLabeledReplicas", "replicas", GREATER_THAN_REPLICAS, errs);
        notGreater(status, "readyReplicas", "replicas", GREATER_THAN_REPLICAS, errs);
        notGreater(status, "availableReplicas", "replicas", GREATER_THAN_REPLICAS, errs);
        notGreater(status, "availableReplicas", "readyReplicas", "cannot be greater than readyReplicas", errs);
        return errs;
    }

    static List<FieldError> statefulSet(JsonNode status) {
        List<FieldError> errs = nonnegative(status, "replicas", "readyReplicas", "currentReplicas", "updatedReplicas",
                "availableReplicas", "observedGeneration", "collisionCount");
        for (String f : new String[] {"readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"}) {
            notGreater(status, f, "replicas", GREATER_THAN_REPLICAS, errs);
        }
        notGreater(status, "availableReplicas", "readyReplicas", "cannot be greater than status.readyReplicas", errs);
        return errs;
    }

    static List<FieldError> daemonSet(JsonNode status) {
        return nonnegative(status, "currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled",
                "numberReady", "observedGeneration", "updatedNumberScheduled", "numberAvailable", "numberUnavailable",
                "collisionCount");
    }

    /** IsDecremented of status.collisionCount, which kube refuses on every workload. */
    static List<FieldError> collisionCountNotDecremented(JsonNode status, JsonNode oldStatus) {
        JsonNode now = status.get("collisionCount");
        JsonNode before = oldStatus.get("collisionCount");
        if (before != null && !before.isNull() && (now == null || now.isNull() || now.asLong() < before.asLong())) {
            long value = now == null || now.isNull() ? 0 : now.asLong();
            return List.of(FieldError.invalid("status.collisionCount", value, "cannot be decremented"));
        }
        return List.of();
    }

    private static List<FieldError> nonnegative(JsonNode status, String... fields) {
        List<FieldError> errs = new ArrayList<>();
        for (String f : fields) {
            errs.addAll(WorkloadValidation.nonnegative(status, f, "status"));
        }
        return errs;
    }

    private static void notGreater(JsonNode status, String field, String than, String message, List<FieldError> errs) {
        long v = status.path(field).asLong(0);
        if (v > status.path(than).asLong(0)) {
            errs.add(FieldError.invalid("status." + field, v, message));
        }
    }
}
