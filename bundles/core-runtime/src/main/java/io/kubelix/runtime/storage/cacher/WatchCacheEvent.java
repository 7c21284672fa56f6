package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.WatchEvent;

/**
 * One change as the watch cache keeps it: the object after and before it, both shared and never
 * changed, each with its JSON encoding, computed once for every watcher and list that sends it.
 */
final class WatchCacheEvent {
    final WatchEvent.Type type;
    final String key;
    final StoreElement element;
    final StoreElement prev;
    final ObjectNode object;
    final ObjectNode prevObject;
    final long resourceVersion;
    /** When the cache received it ({@link System#nanoTime()} scale): the window is sized by it. */
    final long recordedNanos;

    WatchCacheEvent(WatchEvent.Type type, StoreElement element, StoreElement prev, long resourceVersion,
                    long recordedNanos) {
        this.type = type;
        this.key = element.key;
        this.element = element;
        this.prev = prev;
        this.object = element.object;
        this.prevObject = prev == null ? null : prev.object;
        this.resourceVersion = resourceVersion;
        this.recordedNanos = recordedNanos;
    }

    /** The event to hand a watcher: {@code type} of {@code obj}, sharing the encoding when it is this event's object. */
    WatchEvent toWatchEvent(WatchEvent.Type as, ObjectNode obj) {
        return new WatchEvent(as, obj, null, obj == object ? element.json : StoreElement.encodingOf(obj));
    }
}
