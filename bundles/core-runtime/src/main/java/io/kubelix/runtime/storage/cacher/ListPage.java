package io.kubelix.runtime.storage.cacher;

import io.kubelix.api.storage.SelectionPredicate;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * One page of a list read from the watch cache at a revision: the matching objects in key order,
 * at most {@code limit} of them, and what follows. As storage pages: {@code remaining} counts the
 * objects after the page when every object matches; with a selector it is 1 when another match
 * follows (the page has a next one), 0 otherwise.
 *
 * @param items     the page's objects
 * @param lastKey   the key of the page's last object, null when empty
 * @param remaining the objects after the page (see above)
 */
record ListPage(List<StoreElement> items, String lastKey, long remaining) {

    /**
     * Collects a page from {@code current} (the objects now) as they were at an older revision:
     * {@code undo} maps each key changed since to its object at that revision, or to null where it
     * did not exist; both maps cover the same key range.
     */
    static ListPage collect(NavigableMap<String, StoreElement> current, NavigableMap<String, StoreElement> undo,
                            SelectionPredicate predicate, long limit) {
        boolean everything = predicate.matchesEverything();
        List<StoreElement> items = new ArrayList<>();
        String lastKey = null;
        long remaining = 0;
        Iterator<Map.Entry<String, StoreElement>> now = current.entrySet().iterator();
        Iterator<Map.Entry<String, StoreElement>> then = undo.entrySet().iterator();
        Map.Entry<String, StoreElement> a = next(now);
        Map.Entry<String, StoreElement> b = next(then);
        while (a != null || b != null) {
            StoreElement e;
            int order = a == null ? 1 : b == null ? -1 : a.getKey().compareTo(b.getKey());
            if (order < 0) {
                e = a.getValue();
                a = next(now);
            } else {
                if (order == 0) {
                    a = next(now);
                }
                e = b.getValue();
                b = next(then);
            }
            if (e == null) {
                continue;
            }
            boolean full = limit > 0 && items.size() >= limit;
            if (full && everything) {
                remaining++;
                continue;
            }
            if (!everything && !predicate.matches(e.object)) {
                continue;
            }
            if (full) {
                remaining++;
                break;
            }
            items.add(e);
            lastKey = e.key;
        }
        return new ListPage(items, lastKey, remaining);
    }

    private static Map.Entry<String, StoreElement> next(Iterator<Map.Entry<String, StoreElement>> it) {
        return it.hasNext() ? it.next() : null;
    }
}
