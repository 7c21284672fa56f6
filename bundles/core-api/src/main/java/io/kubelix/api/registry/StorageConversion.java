package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ConsumerType;

import java.util.List;

/**
 * How a resource served in one shape is stored in another: kube's conversion between a served
 * version and the storage version, as for {@code events.k8s.io/v1} Events kept as core/v1 Events or
 * {@code autoscaling/v1} HorizontalPodAutoscalers kept as {@code autoscaling/v2}. A {@link StoreSpec}
 * with a conversion ({@link StoreSpec.Builder#storedAs}) shares the storage of the resource under the
 * same key prefix, so both APIs see the same objects, and the generic Store converts every object it
 * writes and reads: its strategies, admission, field selectors and printer columns all see the served
 * shape. Both directions must keep {@code metadata} as it is, and must not change their argument.
 */
@ConsumerType
public interface StorageConversion {

    /** The stored form of {@code obj}, an object of the served shape. */
    ObjectNode toStorage(ObjectNode obj);

    /** The served form of {@code stored}, an object as the storage holds it (possibly shared: do not change it). */
    ObjectNode fromStorage(ObjectNode stored);

    /**
     * The served forms of the objects of a list, in order: by default each converted alone; a conversion
     * that calls out (a CRD's conversion webhook) converts them in one call, as kube converts a list.
     */
    default List<ObjectNode> fromStorage(List<ObjectNode> stored) {
        return stored.stream().map(this::fromStorage).toList();
    }
}
