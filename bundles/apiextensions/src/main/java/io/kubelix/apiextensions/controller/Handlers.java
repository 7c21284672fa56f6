package io.kubelix.apiextensions.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.ResourceEventHandler;

import java.util.function.Consumer;

/** A ResourceEventHandler that hands every added, changed or deleted object to one function. */
public final class Handlers {
    private Handlers() {
    }

    public static ResourceEventHandler onAny(Consumer<ObjectNode> changed) {
        return new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                changed.accept(obj);
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
