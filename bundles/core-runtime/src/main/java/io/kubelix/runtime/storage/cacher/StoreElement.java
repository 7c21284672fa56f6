package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.function.Supplier;

/**
 * One object as the watch cache keeps it (kube's storeElement): shared and never changed, with its
 * encodings, each computed at most once for every watcher and list that sends it.
 */
final class StoreElement {
    final String key;
    final ObjectNode object;
    final Supplier<byte[]> json;

    StoreElement(String key, ObjectNode object) {
        this.key = key;
        this.object = object;
        this.json = encodingOf(object);
    }

    /** The encodings of a shared object, each computed on first use and kept. */
    static CachingObject encodingOf(ObjectNode obj) {
        return new CachingObject(obj);
    }
}
