package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The strategy of a workload (kube's deploymentStrategy, rsStrategy, statefulSetStrategy,
 * daemonSetStrategy): a new object starts with an empty status, every write is defaulted (kube
 * defaults every decoded body, so a PUT that leaves out a default gets it again and the generation
 * only moves when the spec really changes), the main resource keeps the stored status, and the
 * object is validated as kube validates that kind.
 */
final class WorkloadStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final String kind;
    private final Consumer<ObjectNode> specDefaults;
    /** The status fields kube's serialization writes for a zero status (those without omitempty). */
    private final List<String> zeroStatusFields;
    private final Function<ObjectNode, List<FieldError>> validate;
    private final BiFunction<ObjectNode, ObjectNode, List<FieldError>> validateUpdate;

    private WorkloadStrategy(String kind, Consumer<ObjectNode> specDefaults, List<String> zeroStatusFields,
                             Function<ObjectNode, List<FieldError>> validate,
                             BiFunction<ObjectNode, ObjectNode, List<FieldError>> validateUpdate) {
        this.kind = kind;
        this.specDefaults = specDefaults;
        this.zeroStatusFields = zeroStatusFields;
        this.validate = validate;
        this.validateUpdate = validateUpdate;
    }

    static WorkloadStrategy deployment() {
        return new WorkloadStrategy("Deployment", AppsDefaults::deployment, List.of(), WorkloadValidation::deployment,
                (obj, old) -> concat(WorkloadValidation.deployment(obj), WorkloadValidation.selectorUnchanged(obj, old)));
    }

    static WorkloadStrategy replicaSet() {
        return new WorkloadStrategy("ReplicaSet", AppsDefaults::replicaSet, List.of("replicas"), WorkloadValidation::replicaSet,
                (obj, old) -> concat(WorkloadValidation.replicaSet(obj), WorkloadValidation.selectorUnchanged(obj, old)));
    }

    static WorkloadStrategy statefulSet() {
        return new WorkloadStrategy("StatefulSet", AppsDefaults::statefulSet, List.of("replicas", "availableReplicas"),
                StatefulSetValidation::validate, StatefulSetValidation::validateUpdate);
    }

    static WorkloadStrategy daemonSet() {
        return new WorkloadStrategy("DaemonSet", AppsDefaults::daemonSet, List.of("currentNumberScheduled",
                "numberMisscheduled", "desiredNumberScheduled", "numberReady"), WorkloadValidation::daemonSet,
                (obj, old) -> concat(WorkloadValidation.daemonSet(obj), WorkloadValidation.selectorUnchanged(obj, old)));
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectNode spec = spec(obj);
        ObjectNode status = obj.putObject("status");
        zeroStatusFields.forEach(f -> status.put(f, 0));
        specDefaults.accept(spec);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        ObjectNode spec = spec(obj);
        StatusStrategies.resetStatus(obj, old);
        specDefaults.accept(spec);
        // kube's deployment strategy also counts an annotation change as a new generation, because the
        // deployment controller copies annotations to its replicasets (the Store bumps for spec changes).
        if (kind.equals("Deployment") && !annotations(obj).equals(annotations(old))
                && obj.get("metadata") instanceof ObjectNode meta) {
            meta.put("generation", old.path("metadata").path("generation").asLong(0) + 1);
        }
    }

    /** The annotations, with none and an empty map alike (Semantic.DeepEqual). */
    private static JsonNode annotations(ObjectNode obj) {
        JsonNode a = obj.path("metadata").path("annotations");
        return a.isEmpty() ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : a;
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validate.apply(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validateUpdate.apply(obj, old);
    }

    /**
     * The object's spec, created when missing (Go's zero value). The server's typed decoding has
     * already refused a body whose spec, or a field of it, has another JSON type.
     */
    private static ObjectNode spec(ObjectNode obj) {
        return obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
    }

    private static List<FieldError> concat(List<FieldError> a, List<FieldError> b) {
        List<FieldError> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
