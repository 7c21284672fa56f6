package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GroupVersionKindProvider;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.resource.core.common.Nodes;

/**
 * {@code pods/eviction} (kube's EvictionREST): a POST of a {@code policy/v1 Eviction} deletes the
 * pod with the eviction's {@code deleteOptions} (grace period, preconditions, propagation policy,
 * dry run), so a bound pod is deleted gracefully as a {@code kubectl delete} would; before that, as
 * kube does, the pod's {@code DisruptionTarget} condition is set (reason {@code EvictionByEvictionAPI})
 * through {@code pods/status}. PodDisruptionBudgets
 * are not consulted: they are served by another plugin, and plugins cannot read one another's
 * objects, so an eviction here is never refused with 429 for a budget.
 */
public final class PodEvictionREST implements NamedCreater, GroupVersionKindProvider {
    private static final GroupVersionKind EVICTION = new GroupVersionKind("policy", "v1", "Eviction");

    private final Getter getter;
    private final GracefulDeleter deleter;
    private final Updater status;

    /**
     * @param pods   the pods' Store
     * @param status {@code pods/status}, which sets the DisruptionTarget condition
     */
    <S extends Getter & GracefulDeleter> PodEvictionREST(S pods, Updater status) {
        this.getter = pods;
        this.deleter = pods;
        this.status = status;
    }

    @Override
    public ObjectNode create(RequestContext ctx, String name, ObjectNode eviction, CreateOptions options) {
        if (!name.equals(Nodes.name(eviction))) {
            throw StatusException.badRequest("name in URL does not match name in Eviction object");
        }
        DeleteOptions deleteOptions = deleteOptions(eviction.path("deleteOptions"), options.dryRun());
        // A missing pod is a 404 before anything is deleted, as kube's getPod answers.
        getter.get(ctx, name, "");
        if (!deleteOptions.dryRun()) {
            ObjectNode updated = status.update(ctx, name, (c, old) -> {
                if (old == null) {
                    throw StatusException.notFound(PodStorage.PODS, name);
                }
                ObjectNode pod = old.deepCopy();
                PodBindingREST.setCondition(pod, "DisruptionTarget", "True", "EvictionByEvictionAPI", "Eviction API: evicting");
                return pod;
            }, UpdateOptions.DEFAULT).object();
            if (deleteOptions.preconditions().resourceVersion() != null) {
                // The condition was written by this eviction: the precondition moves to that write, as kube's does.
                deleteOptions = new DeleteOptions(false, deleteOptions.gracePeriodSeconds(),
                        new Preconditions(deleteOptions.preconditions().uid(), Nodes.text(updated.path("metadata"), "resourceVersion")),
                        deleteOptions.propagationPolicy(), deleteOptions.orphanDependents());
            }
        }
        deleter.delete(ctx, name, deleteOptions);
        return PodBindingREST.success();
    }

    /** The eviction's metav1.DeleteOptions; the request's dryRun or the options' own make it a dry run. */
    static DeleteOptions deleteOptions(JsonNode opts, boolean dryRun) {
        Long grace = null;
        JsonNode g = opts.get("gracePeriodSeconds");
        if (g != null && !g.isNull()) {
            if (!g.canConvertToLong()) {
                throw StatusException.badRequest("deleteOptions.gracePeriodSeconds must be an integer");
            }
            grace = g.asLong();
        }
        JsonNode pre = opts.path("preconditions");
        Preconditions preconditions = new Preconditions(pre.hasNonNull("uid") ? pre.get("uid").asText() : null,
                pre.hasNonNull("resourceVersion") ? pre.get("resourceVersion").asText() : null);
        boolean dry = dryRun || opts.path("dryRun").isArray() && !opts.path("dryRun").isEmpty();
        String propagation = opts.hasNonNull("propagationPolicy") ? opts.get("propagationPolicy").asText() : null;
        Boolean orphan = opts.path("orphanDependents").isBoolean() ? opts.get("orphanDependents").asBoolean() : null;
        return new DeleteOptions(dry, grace, preconditions, propagation, orphan);
    }

    @Override
    public GroupVersionKind groupVersionKind(GroupVersion containingGV) {
        return EVICTION;
    }

    @Override
    public String kind() {
        return "Eviction";
    }

    @Override
    public boolean namespaced() {
        return true;
    }

    @Override
    public String singularName() {
        return "";
    }
}
