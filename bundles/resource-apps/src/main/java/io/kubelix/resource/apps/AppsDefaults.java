package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateDefaults;

/**
 * kube's apps/v1 defaulting (pkg/apis/apps/v1/defaults.go), with the core/v1 defaults of the pod
 * template each workload embeds. Each method defaults the object's {@code spec} in place; a spec
 * that is not an object is left for {@link WorkloadStrategy} to refuse.
 */
final class AppsDefaults {
    static final String RECREATE = "Recreate";
    static final String ROLLING_UPDATE = "RollingUpdate";
    static final String ON_DELETE = "OnDelete";
    static final String ORDERED_READY = "OrderedReady";
    static final String PARALLEL = "Parallel";
    static final String RETAIN = "Retain";
    static final String DELETE = "Delete";

    private AppsDefaults() {
    }

    /**
     * SetDefaults_Deployment: replicas 1, strategy RollingUpdate with maxUnavailable and maxSurge
     * 25%, revisionHistoryLimit 10, progressDeadlineSeconds 600.
     */
    static void deployment(ObjectNode spec) {
        putIfAbsent(spec, "replicas", 1);
        ObjectNode rolling = rollingUpdate(spec, "strategy");
        if (rolling != null) {
            putIfAbsent(rolling, "maxUnavailable", "25%");
            putIfAbsent(rolling, "maxSurge", "25%");
        }
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        putIfAbsent(spec, "progressDeadlineSeconds", 600);
        template(spec);
    }

    /** SetDefaults_ReplicaSet: replicas 1. */
    static void replicaSet(ObjectNode spec) {
        putIfAbsent(spec, "replicas", 1);
        template(spec);
    }

    /**
     * SetDefaults_StatefulSet (with kube 1.32's feature gates: StatefulSetAutoDeletePVC on,
     * MaxUnavailableStatefulSet off): podManagementPolicy OrderedReady, updateStrategy
     * RollingUpdate with partition 0, persistentVolumeClaimRetentionPolicy Retain/Retain,
     * replicas 1, revisionHistoryLimit 10.
     */
    static void statefulSet(ObjectNode spec) {
        if (spec.path("podManagementPolicy").asText("").isEmpty()) {
            spec.put("podManagementPolicy", ORDERED_READY);
        }
        ObjectNode strategy = object(spec, "updateStrategy");
        if (strategy != null) {
            if (strategy.path("type").asText("").isEmpty()) {
                strategy.put("type", ROLLING_UPDATE);
                object(strategy, "rollingUpdate");
            }
            if (ROLLING_UPDATE.equals(strategy.path("type").asText()) && strategy.get("rollingUpdate") instanceof ObjectNode r) {
                putIfAbsent(r, "partition", 0);
            }
        }
        ObjectNode retention = object(spec, "persistentVolumeClaimRetentionPolicy");
        if (retention != null) {
            putIfAbsent(retention, "whenDeleted", RETAIN);
            putIfAbsent(retention, "whenScaled", RETAIN);
        }
        putIfAbsent(spec, "replicas", 1);
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        template(spec);
    }

    /**
     * SetDefaults_DaemonSet: updateStrategy RollingUpdate with maxUnavailable 1 and maxSurge 0,
     * revisionHistoryLimit 10.
     */
    static void daemonSet(ObjectNode spec) {
        ObjectNode rolling = rollingUpdate(spec, "updateStrategy");
        if (rolling != null) {
            putIfAbsent(rolling, "maxUnavailable", 1);
            putIfAbsent(rolling, "maxSurge", 0);
        }
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        template(spec);
    }

    /**
     * A deployment's or daemonset's strategy: type RollingUpdate when unset, and then its
     * {@code rollingUpdate} (created when missing) for the bounds' defaults; null for another type.
     */
    private static ObjectNode rollingUpdate(ObjectNode spec, String field) {
        ObjectNode strategy = object(spec, field);
        if (strategy == null) {
            return null;
        }
        if (strategy.path("type").asText("").isEmpty()) {
            strategy.put("type", ROLLING_UPDATE);
        }
        return ROLLING_UPDATE.equals(strategy.path("type").asText()) ? object(strategy, "rollingUpdate") : null;
    }

    private static void template(ObjectNode spec) {
        ObjectNode template = object(spec, "template");
        if (template != null) {
            PodTemplateDefaults.setPodTemplateSpecDefaults(template);
        }
    }

    /** The object at {@code field}, created when missing or null (Go's zero value); null when it is something else. */
    private static ObjectNode object(ObjectNode parent, String field) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            return parent.putObject(field);
        }
        return v instanceof ObjectNode o ? o : null;
    }

    private static void putIfAbsent(ObjectNode o, String field, int value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }

    private static void putIfAbsent(ObjectNode o, String field, String value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }
}
