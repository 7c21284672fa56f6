package io.kubelix.resource.scheduling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.request.RequestContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * What kube-apiserver's {@code scheduling/bootstrap-system-priority-classes} post-start hook does:
 * creates {@code system-node-critical} and {@code system-cluster-critical} when they are missing.
 * An existing class, even one changed by a user, is left as it is. The hook itself is
 * {@link SchedulingRESTStorageProvider}, which runs this until both exist.
 */
final class SystemPriorityClasses {
    static final long SYSTEM_CRITICAL_PRIORITY = 2 * PriorityClassStrategy.HIGHEST_USER_DEFINABLE_PRIORITY;
    /** The system classes and their values, as kube defines them. */
    static final Map<String, Long> CLASSES = Map.of(
            "system-node-critical", SYSTEM_CRITICAL_PRIORITY + 1000,
            "system-cluster-critical", SYSTEM_CRITICAL_PRIORITY);

    private static final Logger LOG = LoggerFactory.getLogger(SystemPriorityClasses.class);

    private final StandardStorage priorityClasses;

    SystemPriorityClasses(StandardStorage priorityClasses) {
        this.priorityClasses = priorityClasses;
    }

    /**
     * Why a {@code system-} class with these fields is refused (kube's IsKnownSystemPriorityClass),
     * or null when it is one of the system classes as defined.
     */
    static String whyNotKnown(String name, long value, boolean globalDefault) {
        Long known = CLASSES.get(name);
        if (known == null) {
            return name + " is not a known system priority class";
        }
        if (known != value) {
            return "value of " + name + " PriorityClass must be " + known;
        }
        return globalDefault ? "globalDefault of " + name + " PriorityClass must be false" : null;
    }

    /** The system class {@code name} as kube creates it. */
    static ObjectNode priorityClass(String name) {
        Unstructured pc = Unstructured.of(SchedulingRESTStorageProvider.GROUP + "/" + SchedulingRESTStorageProvider.VERSION,
                "PriorityClass");
        pc.metadata().name(name);
        ObjectNode obj = pc.object();
        obj.put("value", CLASSES.get(name));
        obj.put("description", "Used for system critical pods that must run in the cluster, but can be moved to "
                + "another node if necessary.");
        if (name.equals("system-node-critical")) {
            obj.put("description", "Used for system critical pods that must not be moved from their current node.");
        }
        return obj;
    }

    /** One pass: creates each missing class; true when both exist. */
    boolean ensure() {
        RequestContext ctx = RequestContext.system("");
        for (String name : CLASSES.keySet()) {
            try {
                priorityClasses.create(ctx, priorityClass(name), CreateOptions.DEFAULT);
                LOG.info("created system priority class {}", name);
            } catch (StatusException e) {
                if (e.reason() == StatusReason.SERVICE_UNAVAILABLE) {
                    LOG.info("system priority classes wait for storage: {}", e.getMessage());
                    return false;
                }
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    LOG.warn("could not create system priority class {}: {} {}", name, e.code(), e.getMessage());
                    return false;
                }
            }
        }
        return true;
    }
}
