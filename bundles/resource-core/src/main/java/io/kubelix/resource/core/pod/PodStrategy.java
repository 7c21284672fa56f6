package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTDeleteStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.resource.core.common.Specs;

import java.util.List;

/**
 * The Pod strategy (pkg/registry/core/pod/strategy.go): every write is defaulted; a new pod gets
 * a status of phase {@code Pending}
 * with its QoS class and, when it has scheduling gates, the {@code SchedulingGated} condition; the
 * main resource keeps the stored status; validation as kube's. Deletion is graceful as kube's
 * CheckGracefulDelete decides: only a pod bound to a node that has not finished waits for its grace
 * period.
 */
final class PodStrategy implements RESTCreateStrategy, RESTUpdateStrategy, RESTDeleteStrategy {
    static final String PENDING = "Pending";

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectNode spec = spec(obj);
        PodDefaults.setPodSpecDefaults(spec);
        ObjectNode status = obj.putObject("status");
        status.put("phase", PENDING);
        status.put("qosClass", PodQOS.qosClass(spec));
        if (!spec.path("schedulingGates").isEmpty()) {
            ObjectNode gated = status.putArray("conditions").addObject();
            gated.putNull("lastProbeTime");
            gated.putNull("lastTransitionTime");
            gated.put("message", "Scheduling is blocked due to non-empty scheduling gates");
            gated.put("reason", "SchedulingGated");
            gated.put("status", "False");
            gated.put("type", "PodScheduled");
        }
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        ObjectNode spec = spec(obj);
        PodDefaults.setPodSpecDefaults(spec);
        StatusStrategies.resetStatus(obj, old);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return PodValidation.validateCreate(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return PodValidation.validateUpdate(obj, old);
    }

    @Override
    public List<String> warningsOnCreate(RequestContext ctx, ObjectNode obj) {
        JsonNode grace = obj.path("spec").get("terminationGracePeriodSeconds");
        if (grace != null && grace.asLong(0) < 0) {
            return List.of("spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be "
                    + "treated as 1");
        }
        return List.of();
    }

    /**
     * CheckGracefulDelete: the grace period asked for, or the pod's terminationGracePeriodSeconds;
     * zero (deleted at once) for a pod not bound to a node or one that has succeeded or failed; a
     * negative period is one second.
     */
    @Override
    public Long checkGracefulDelete(RequestContext ctx, ObjectNode obj, DeleteOptions options) {
        long period;
        if (options.gracePeriodSeconds() != null) {
            period = options.gracePeriodSeconds();
        } else {
            period = obj.path("spec").path("terminationGracePeriodSeconds").asLong(0);
        }
        if (Nodes.text(obj.path("spec"), "nodeName").isEmpty()) {
            period = 0;
        }
        String phase = Nodes.text(obj.path("status"), "phase");
        if (phase.equals("Failed") || phase.equals("Succeeded")) {
            period = 0;
        }
        return period < 0 ? 1 : period;
    }

    static ObjectNode spec(ObjectNode obj) {
        return Specs.spec(obj);
    }

    /** kube answers a delete of {@code pods} with the deleted object (ReturnDeletedObject). */
    @Override
    public boolean returnDeletedObject() {
        return true;
    }
}
