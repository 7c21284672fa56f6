package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.quantity.Quantity;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's quota.Evaluator: what a ResourceQuota can measure about one kind of object. Pods and
 * persistent volume claims have their own (compute and storage); every other kind is counted.
 */
interface QuotaEvaluator {

    /** The resource whose objects this evaluator measures (as the quota controller lists them). */
    GroupVersionResource resource();

    /** kube's MatchingResources: whether this evaluator tracks the quota resource {@code name}. */
    boolean matchesResource(String name);

    /** Whether an object lies within a quota's scopes: only pods can; any scope excludes other kinds, as kube's. */
    default boolean matchesScopes(List<QuotaScopes.Selector> scopes, ObjectNode obj) {
        return scopes.isEmpty();
    }

    /** kube's MatchingScopes: those of {@code selectors} the object lies within; only a pod can lie within any. */
    default List<QuotaScopes.Selector> matchingScopes(ObjectNode obj, List<QuotaScopes.Selector> selectors) {
        return List.of();
    }

    /** kube's Usage: what the object consumes of each resource it is charged for. */
    Map<String, Quantity> usage(ObjectNode obj);

    /**
     * kube's Constraints: why an object cannot be admitted under a quota that tracks {@code required},
     * or null when it can.
     */
    default String constraints(Set<String> required, ObjectNode obj) {
        return null;
    }

    /** The evaluator for objects of {@code group}/{@code resource}. */
    static QuotaEvaluator forResource(String group, String resource) {
        if (group.isEmpty() && resource.equals("pods")) {
            return PodEvaluator.INSTANCE;
        }
        if (group.isEmpty() && resource.equals("persistentvolumeclaims")) {
            return PersistentVolumeClaimEvaluator.INSTANCE;
        }
        return new ObjectCountEvaluator(group, resource);
    }

    /** The evaluators a quota's {@code hard} asks for: the kinds whose objects its resources measure. */
    static List<QuotaEvaluator> forQuota(Iterable<String> hard) {
        java.util.Map<GroupVersionResource, QuotaEvaluator> found = new java.util.LinkedHashMap<>();
        for (String name : hard) {
            QuotaEvaluator e;
            if (PodEvaluator.INSTANCE.matchesResource(name)) {
                e = PodEvaluator.INSTANCE;
            } else if (PersistentVolumeClaimEvaluator.INSTANCE.matchesResource(name)) {
                e = PersistentVolumeClaimEvaluator.INSTANCE;
            } else {
                GroupVersionResource gvr = QuotaResources.counted(name);
                e = gvr == null ? null : forResource(gvr.group(), gvr.resource());
            }
            if (e != null) {
                found.putIfAbsent(e.resource(), e);
            }
        }
        return List.copyOf(found.values());
    }
}
