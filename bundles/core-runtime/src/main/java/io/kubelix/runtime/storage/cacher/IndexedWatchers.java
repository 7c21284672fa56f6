package io.kubelix.runtime.storage.cacher;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The watchers of one directory (kube's indexedWatchers): those whose field selector requires a
 * value of the resource's indexed field, by that value, and all others. Guarded by the Cacher's
 * dispatch lock.
 */
final class IndexedWatchers {
    private final Set<CacheWatcher> all = new LinkedHashSet<>();
    private final Map<String, Set<CacheWatcher>> byValue = new HashMap<>();

    void add(CacheWatcher w) {
        if (w.triggerValue == null) {
            all.add(w);
        } else {
            byValue.computeIfAbsent(w.triggerValue, v -> new LinkedHashSet<>()).add(w);
        }
    }

    boolean remove(CacheWatcher w) {
        if (w.triggerValue == null) {
            return all.remove(w);
        }
        Set<CacheWatcher> set = byValue.get(w.triggerValue);
        if (set == null || !set.remove(w)) {
            return false;
        }
        if (set.isEmpty()) {
            byValue.remove(w.triggerValue);
        }
        return true;
    }

    boolean isEmpty() {
        return all.isEmpty() && byValue.isEmpty();
    }

    int size() {
        return all.size() + byValue.values().stream().mapToInt(Set::size).sum();
    }

    /**
     * Adds the watchers an event may concern: every watcher without an indexed value and, when the
     * event's trigger values are known, those indexed by one of them; when they are not (null),
     * every watcher.
     */
    void addInterested(Collection<CacheWatcher> out, List<String> triggerValues) {
        out.addAll(all);
        if (triggerValues == null) {
            byValue.values().forEach(out::addAll);
            return;
        }
        for (String v : triggerValues) {
            Set<CacheWatcher> set = byValue.get(v);
            if (set != null) {
                out.addAll(set);
            }
        }
    }

    void forEach(Consumer<CacheWatcher> action) {
        all.forEach(action);
        byValue.values().forEach(set -> set.forEach(action));
    }

    /** Moves every indexed watcher to the unindexed ones (the index changed); they then see every event. */
    void unindex() {
        List<CacheWatcher> indexed = new ArrayList<>();
        byValue.values().forEach(indexed::addAll);
        byValue.clear();
        indexed.forEach(w -> {
            w.triggerValue = null;
            all.add(w);
        });
    }
}
