package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One page of a list.
 *
 * @param items              the objects, ordered by key; the caller owns them
 * @param resourceVersion    the revision the list was read at
 * @param continueToken      the token for the next page, or null when this is the last page
 * @param remainingItemCount how many matching items follow this page, or null when unknown
 * @param json               the items' JSON encodings, in the same order, each computed at most once and
 *                           shared (the watch cache fills it, as {@link WatchEvent#json()}), so a response
 *                           can be written without encoding the items again; null when the backend has none.
 *                           With encodings, both lists are kept as given rather than copied (a large list is
 *                           not copied per request), so a backend may hand out a list that copies each object
 *                           only when it is read; neither may change afterwards
 */
public record ListResult(List<ObjectNode> items, long resourceVersion, String continueToken, Long remainingItemCount,
                         List<Supplier<byte[]>> json) {
    public ListResult {
        if (json == null) {
            items = List.copyOf(items);
        } else {
            json = Collections.unmodifiableList(Objects.requireNonNull(json));
            items = Collections.unmodifiableList(Objects.requireNonNull(items));
            if (items.size() != json.size()) {
                throw new IllegalArgumentException("items and json differ in length: " + items.size() + " and "
                        + json.size());
            }
        }
    }

    /** A page without encodings. */
    public ListResult(List<ObjectNode> items, long resourceVersion, String continueToken, Long remainingItemCount) {
        this(items, resourceVersion, continueToken, remainingItemCount, null);
    }
}
