package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * One page of a list.
 *
 * @param items              the objects, ordered by key
 * @param resourceVersion    the revision the list was read at
 * @param continueToken      the token for the next page, or null when this is the last page
 * @param remainingItemCount how many matching items follow this page, or null when unknown
 */
public record ListResult(List<ObjectNode> items, long resourceVersion, String continueToken, Long remainingItemCount) {
    public ListResult {
        items = List.copyOf(items);
    }
}
