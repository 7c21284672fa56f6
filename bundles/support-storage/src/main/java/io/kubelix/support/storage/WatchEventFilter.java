package io.kubelix.support.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.api.storage.WatchEvent.Type;

/**
 * Turns a stored write into what one watcher sees through its predicate, like the etcd3
 * watcher's transform: an object that stops matching is DELETED (as it was, at the write's
 * revision), one that starts matching is ADDED, writes it never matched are dropped.
 */
public final class WatchEventFilter {
    private final JsonCodec codec;
    private final SelectionPredicate predicate;

    public WatchEventFilter(JsonCodec codec, SelectionPredicate predicate) {
        this.codec = codec;
        this.predicate = predicate;
    }

    public boolean matches(ObjectNode obj) {
        return predicate.matchesEverything() || predicate.matches(obj);
    }

    /** The event to deliver, or null when the watcher does not see this write. */
    public WatchEvent transform(StoredEvent e) {
        if (e.isDelete()) {
            ObjectNode prev = codec.decode(e.key(), e.prevData(), e.revision());
            return matches(prev) ? WatchEvent.of(Type.DELETED, prev) : null;
        }
        ObjectNode cur = codec.decode(e.key(), e.data(), e.revision());
        boolean curMatches = matches(cur);
        if (e.isCreate()) {
            return curMatches ? WatchEvent.of(Type.ADDED, cur) : null;
        }
        if (predicate.matchesEverything()) {
            return WatchEvent.of(Type.MODIFIED, cur);
        }
        ObjectNode prev = codec.decode(e.key(), e.prevData(), e.revision());
        boolean prevMatches = matches(prev);
        if (curMatches) {
            return WatchEvent.of(prevMatches ? Type.MODIFIED : Type.ADDED, cur);
        }
        return prevMatches ? WatchEvent.of(Type.DELETED, prev) : null;
    }
}
