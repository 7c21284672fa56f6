package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandler;

import java.util.List;
import java.util.function.Function;

/** An informer handler that queues the keys an object names whenever it is added, changed or deleted. */
final class EnqueueHandler implements ResourceEventHandler {
    private final RateLimitingQueue<String> queue;
    private final Function<ObjectNode, List<String>> keys;

    EnqueueHandler(RateLimitingQueue<String> queue, Function<ObjectNode, List<String>> keys) {
        this.queue = queue;
        this.keys = keys;
    }

    @Override
    public void onAdd(ObjectNode obj, boolean isInInitialList) {
        keys.apply(obj).forEach(queue::add);
    }

    @Override
    public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
        keys.apply(oldObj).forEach(queue::add);
        keys.apply(newObj).forEach(queue::add);
    }

    @Override
    public void onDelete(ObjectNode obj) {
        keys.apply(obj).forEach(queue::add);
    }
}
