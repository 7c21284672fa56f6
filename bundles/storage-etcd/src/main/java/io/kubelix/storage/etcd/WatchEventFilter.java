package io.kubelix.storage.etcd;

import io.kubelix.support.storage.JsonCodec;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcd.jetcd.KeyValue;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.api.storage.WatchEvent.Type;

/**
 * Turns one etcd event (with its prev_kv) into what a watcher sees through its predicate, as kube's
 * etcd3 watcher does: a write that makes an object stop matching is DELETED (the object as it
 * was, at the write's revision), one that makes it start matching is ADDED, writes it never
 * matched are dropped.
 */
final class WatchEventFilter {
    private final Keys keys;
    private final JsonCodec codec;
    private final SelectionPredicate predicate;

    WatchEventFilter(Keys keys, JsonCodec codec, SelectionPredicate predicate) {
        this.keys = keys;
        this.codec = codec;
        this.predicate = predicate;
    }

    boolean matches(ObjectNode obj) {
        return predicate.matchesEverything() || predicate.matches(obj);
    }

    /** The event to deliver, or null when the watcher does not see this write. */
    WatchEvent transform(io.etcd.jetcd.watch.WatchEvent e) {
        KeyValue kv = e.getKeyValue();
        String key = keys.storageKey(kv.getKey());
        long rev = kv.getModRevision();
        ObjectNode prev = present(e.getPrevKV()) ? codec.decode(key, e.getPrevKV().getValue().getBytes(), rev) : null;
        if (e.getEventType() == io.etcd.jetcd.watch.WatchEvent.EventType.DELETE) {
            return prev != null && matches(prev) ? WatchEvent.of(Type.DELETED, prev) : null;
        }
        ObjectNode cur = codec.decode(key, kv.getValue().getBytes(), rev);
        boolean curMatches = matches(cur);
        if (kv.getCreateRevision() == rev) {
            return curMatches ? WatchEvent.of(Type.ADDED, cur) : null;
        }
        if (predicate.matchesEverything()) {
            return WatchEvent.of(Type.MODIFIED, cur);
        }
        boolean prevMatches = prev != null && matches(prev);
        if (curMatches) {
            return WatchEvent.of(prevMatches ? Type.MODIFIED : Type.ADDED, cur);
        }
        return prevMatches ? WatchEvent.of(Type.DELETED, prev) : null;
    }

    private static boolean present(KeyValue kv) {
        return kv != null && !kv.getKey().isEmpty() && !kv.getValue().isEmpty();
    }
}
