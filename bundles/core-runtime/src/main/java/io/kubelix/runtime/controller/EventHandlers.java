package io.kubelix.runtime.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.ResourceEventHandler;

import java.util.function.Consumer;

/** Informer handlers for controllers that react to any change of an object the same way (usually by queueing a key). */
public final class EventHandlers {
    private EventHandlers() {
    }

    /**
     * A handler passing every object it is told of (added, the new state of an update, deleted) to
     * {@code changed}; with {@code skipInitial}, not the objects that were there when it was added.
     */
    public static ResourceEventHandler onAnyChange(Consumer<ObjectNode> changed, boolean skipInitial) {
        return new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                if (!skipInitial || !isInInitialList) {
                    changed.accept(obj);
                }
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                changed.accept(newObj);
            }

            @Override
            public void onDelete(ObjectNode obj) {
                changed.accept(obj);
            }
        };
    }
}
