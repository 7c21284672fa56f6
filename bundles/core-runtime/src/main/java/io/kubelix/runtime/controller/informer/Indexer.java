package io.kubelix.runtime.controller.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.IndexFunc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * client-go's {@code threadSafeStore} without its lock (the informer holds one around every call):
 * objects by key, and for each named indexer the keys of the objects under each indexed value.
 */
final class Indexer {
    private final Map<String, ObjectNode> items = new TreeMap<>();
    private final Map<String, IndexFunc> indexers = new HashMap<>();
    /** index name → indexed value → keys. */
    private final Map<String, Map<String, Set<String>>> indices = new HashMap<>();

    ObjectNode get(String key) {
        return items.get(key);
    }

    List<ObjectNode> list() {
        return List.copyOf(items.values());
    }

    int size() {
        return items.size();
    }

    Set<String> keys() {
        return items.keySet();
    }

    /** Stores {@code obj} under {@code key}; returns what was there. */
    ObjectNode put(String key, ObjectNode obj) {
        ObjectNode old = items.put(key, obj);
        if (old != null) {
            unindex(key, old);
        }
        index(key, obj);
        return old;
    }

    /** Removes the object under {@code key}; returns it, or null. */
    ObjectNode remove(String key) {
        ObjectNode old = items.remove(key);
        if (old != null) {
            unindex(key, old);
        }
        return old;
    }

    void addIndexers(Map<String, IndexFunc> more) {
        for (String name : more.keySet()) {
            if (indexers.containsKey(name)) {
                throw new IllegalArgumentException("indexer \"" + name + "\" already exists");
            }
        }
        more.forEach((name, fn) -> {
            indexers.put(name, fn);
            Map<String, Set<String>> index = indices.computeIfAbsent(name, k -> new HashMap<>());
            items.forEach((key, obj) -> fn.index(obj).forEach(v -> index.computeIfAbsent(v, x -> new TreeSet<>()).add(key)));
        });
    }

    void removeIndexers(Set<String> names) {
        names.forEach(n -> {
            indexers.remove(n);
            indices.remove(n);
        });
    }

    /** The objects under {@code value} in index {@code name}, by key. */
    List<ObjectNode> byIndex(String name, String value) {
        Map<String, Set<String>> index = indices.get(name);
        if (index == null) {
            throw new IllegalArgumentException("indexer \"" + name + "\" does not exist");
        }
        Set<String> keys = index.getOrDefault(value, Set.of());
        List<ObjectNode> found = new ArrayList<>(keys.size());
        keys.forEach(k -> found.add(items.get(k)));
        return found;
    }

    private void index(String key, ObjectNode obj) {
        indexers.forEach((name, fn) -> {
            Map<String, Set<String>> index = indices.get(name);
            for (String v : fn.index(obj)) {
                index.computeIfAbsent(v, x -> new TreeSet<>()).add(key);
            }
        });
    }

    private void unindex(String key, ObjectNode obj) {
        indexers.forEach((name, fn) -> {
            Map<String, Set<String>> index = indices.get(name);
            for (String v : fn.index(obj)) {
                Set<String> keys = index.get(v);
                if (keys != null && keys.remove(key) && keys.isEmpty()) {
                    index.remove(v);
                }
            }
        });
    }
}
