package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.resource.core.common.CoreSchemas;
import io.kubelix.resource.core.common.Nodes;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code pods/binding} (kube's BindingREST): a POST of a {@code v1 Binding} assigns the pod to the
 * node its target names, once: {@code spec.nodeName} is set, the binding's annotations are copied
 * to the pod and its {@code PodScheduled} condition becomes True. A pod already bound, being
 * deleted or held by scheduling gates is a 409 Conflict; the binding's uid and resourceVersion, when
 * given, are preconditions on the pod.
 *
 * <p>The write goes through a Store over the pods' storage whose update strategy changes nothing
 * (the pod strategy forbids changing spec.nodeName), so it is admitted and stored like any update.
 */
final class PodBindingREST implements NamedCreater {
    static final GroupResource BINDING = GroupResource.of("", "pods/binding");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final StatusStorage pods;
    private final ResourceSchema schema = CoreSchemas.v1("Binding");

    /** @param pods the pods' Store with {@link #updateStrategy()} as its update strategy */
    PodBindingREST(StatusStorage pods) {
        this.pods = pods;
    }

    /** The update strategy of the Store binding writes go through: the pod as the binding made it. */
    static RESTUpdateStrategy updateStrategy() {
        return new RESTUpdateStrategy() {
            @Override
            public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                return List.of();
            }
        };
    }

    @Override
    public ObjectNode create(RequestContext ctx, String name, ObjectNode binding, CreateOptions options) {
        String bindingName = Nodes.name(binding);
        if (!name.equals(bindingName)) {
            throw StatusException.badRequest("name in URL does not match name in Binding object");
        }
        List<FieldError> errs = PodValidation.validateBinding(binding);
        if (!errs.isEmpty()) {
            throw StatusException.invalid("Binding", "", name, errs);
        }
        String node = Nodes.text(binding.path("target"), "name");
        JsonNode meta = binding.path("metadata");
        pods.update(ctx, name, (c, old) -> bind(old, name, node, meta), new UpdateOptions(options.dryRun(), options.fieldManager()));
        return success();
    }

    /** The {@code v1 Status} kube answers a binding or an eviction with: {@code status: Success}. */
    static ObjectNode success() {
        ObjectNode status = F.objectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Success");
        return status;
    }

    /** setPodHostAndAnnotations: the pod bound to {@code node}, or a 409 when it cannot be. */
    static ObjectNode bind(ObjectNode old, String name, String node, JsonNode bindingMeta) {
        if (old == null) {
            throw StatusException.notFound(PodStorage.PODS, name);
        }
        ObjectNode pod = old.deepCopy();
        ObjectNode meta = (ObjectNode) pod.path("metadata");
        checkPrecondition(name, "UID", Nodes.text(bindingMeta, "uid"), Nodes.text(meta, "uid"));
        checkPrecondition(name, "ResourceVersion", Nodes.text(bindingMeta, "resourceVersion"),
                Nodes.text(meta, "resourceVersion"));
        if (!Nodes.isUnset(meta, "deletionTimestamp")) {
            throw StatusException.conflict(BINDING, name, "pod " + name + " is being deleted, cannot be assigned to a host");
        }
        ObjectNode spec = PodStrategy.spec(pod);
        String bound = Nodes.text(spec, "nodeName");
        if (!bound.isEmpty()) {
            throw StatusException.conflict(BINDING, name, "pod " + name + " is already assigned to node \"" + bound + "\"");
        }
        if (!spec.path("schedulingGates").isEmpty()) {
            throw StatusException.conflict(BINDING, name, "pod " + name + " has non-empty .spec.schedulingGates");
        }
        spec.put("nodeName", node);
        if (bindingMeta.get("annotations") instanceof ObjectNode annotations && !annotations.isEmpty()) {
            ObjectNode podAnnotations = meta.get("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
            podAnnotations.setAll(annotations.deepCopy());
        }
        setCondition(pod, "PodScheduled", "True", null, null);
        return pod;
    }

    private static void checkPrecondition(String name, String what, String wanted, String actual) {
        if (!wanted.isEmpty() && !wanted.equals(actual)) {
            throw StatusException.conflict(PodStorage.PODS, name, "Precondition failed: " + what
                    + " in precondition: " + wanted + ", " + what + " in object meta: " + actual);
        }
    }

    /**
     * podutil.UpdatePodCondition: sets a condition's status, reason and message (null for none), its
     * transition time moving only when the status does.
     */
    static void setCondition(ObjectNode pod, String type, String value, String reason, String message) {
        ObjectNode status = pod.get("status") instanceof ObjectNode s ? s : pod.putObject("status");
        ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        for (JsonNode c : conditions) {
            if (c instanceof ObjectNode condition && type.equals(Nodes.text(condition, "type"))) {
                if (!value.equals(Nodes.text(condition, "status"))) {
                    condition.put("lastTransitionTime", now);
                }
                condition.put("status", value);
                putOrRemove(condition, "reason", reason);
                putOrRemove(condition, "message", message);
                return;
            }
        }
        ObjectNode condition = conditions.addObject();
        condition.putNull("lastProbeTime");
        condition.put("lastTransitionTime", now);
        putOrRemove(condition, "message", message);
        putOrRemove(condition, "reason", reason);
        condition.put("status", value);
        condition.put("type", type);
    }

    private static void putOrRemove(ObjectNode o, String field, String value) {
        if (value == null) {
            o.remove(field);
        } else {
            o.put(field, value);
        }
    }

    @Override
    public String kind() {
        return "Binding";
    }

    @Override
    public boolean namespaced() {
        return true;
    }

    @Override
    public String singularName() {
        return "";
    }

    @Override
    public ResourceSchema schema() {
        return schema;
    }
}
