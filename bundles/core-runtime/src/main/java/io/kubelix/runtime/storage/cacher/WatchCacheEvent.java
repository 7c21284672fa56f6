package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.codec.Codecs;

import java.util.function.Supplier;

/**
 * One change as the watch cache keeps it: the object after and before it, both shared and never
 * changed, and the object's JSON encoding, computed once for every watcher that receives it.
 */
final class WatchCacheEvent {
    final WatchEvent.Type type;
    final String key;
    final ObjectNode object;
    final ObjectNode prevObject;
    final long resourceVersion;
    private final Supplier<byte[]> json;

    WatchCacheEvent(WatchEvent.Type type, String key, ObjectNode object, ObjectNode prevObject, long resourceVersion) {
        this.type = type;
        this.key = key;
        this.object = object;
        this.prevObject = prevObject;
        this.resourceVersion = resourceVersion;
        this.json = encodingOf(object);
    }

    /** The event to hand a watcher: {@code type} of {@code object}, sharing the encoding when it is this event's object. */
    WatchEvent toWatchEvent(WatchEvent.Type as, ObjectNode obj) {
        return new WatchEvent(as, obj, null, obj == object ? json : encodingOf(obj));
    }

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
