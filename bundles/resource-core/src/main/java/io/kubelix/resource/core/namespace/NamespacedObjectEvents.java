package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandler;

import java.util.function.Predicate;

/**
 * What the controllers that keep one object in every namespace (the service account controller,
 * the root CA publisher) share: they are queued by namespace name, when a namespace comes or
 * changes and when their object changes or goes, and a create that meets a namespace going away
 * is no failure.
 */
public final class NamespacedObjectEvents {
    private NamespacedObjectEvents() {
    }

    /** Queues a namespace's name when it is added, and when it is updated and {@code updated} accepts it. */
    public static ResourceEventHandler namespaces(RateLimitingQueue<String> queue, Predicate<ObjectNode> updated) {
        return new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                queue.add(obj.path("metadata").path("name").asText());
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                if (updated.test(newObj)) {
                    queue.add(newObj.path("metadata").path("name").asText());
                }
            }

            @Override
            public void onDelete(ObjectNode obj) {
            }
        };
    }

    /** Queues the namespace of the object named {@code name} when it is deleted, and when updated if {@code updates}. */
    public static ResourceEventHandler objectNamed(RateLimitingQueue<String> queue, String name, boolean updates) {
        return new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                if (updates) {
                    onDelete(newObj);
                }
            }

            @Override
            public void onDelete(ObjectNode obj) {
                if (name.equals(obj.path("metadata").path("name").asText())) {
                    queue.add(obj.path("metadata").path("namespace").asText());
                }
            }
        };
    }

    /**
     * Whether a failed create or update only says the work is done or moot: the object is there
     * already (the cache was behind), or its namespace went or began terminating meanwhile.
     */
    public static boolean moot(StatusException e) {
        return e.reason() == StatusReason.ALREADY_EXISTS || e.reason() == StatusReason.FORBIDDEN
                || e.reason() == StatusReason.NOT_FOUND;
    }
}
