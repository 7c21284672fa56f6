package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.runtime.codec.Codecs;

import java.util.function.Supplier;

/**
 * One object as the watch cache keeps it (kube's storeElement): shared and never changed, with its
 * JSON encoding, computed at most once for every watcher and list that sends it.
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

    /** The JSON encoding of a shared object, computed on first use and kept. */
    static Supplier<byte[]> encodingOf(ObjectNode obj) {
        return new Supplier<>() {
            private volatile byte[] bytes;

            @Override
            public byte[] get() {
                byte[] b = bytes;
                if (b == null) {
                    b = Codecs.toJson(obj);
                    bytes = b;
                }
                return b;
            }
        };
    }
}
