package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;

/**
 * One event of a watch stream (watch.Event).
 *
 * @param type   what happened
 * @param object the object after the change (for DELETED: as it was deleted, with the deletion's
 *               resourceVersion; for BOOKMARK: only {@code metadata.resourceVersion}); null for ERROR
 * @param error  the error that ends the stream, for ERROR events only
 */
public record WatchEvent(Type type, ObjectNode object, StatusException error) {

    public enum Type { ADDED, MODIFIED, DELETED, BOOKMARK, ERROR }

    public static WatchEvent of(Type type, ObjectNode object) {
        return new WatchEvent(type, object, null);
    }

    public static WatchEvent error(StatusException error) {
        return new WatchEvent(Type.ERROR, null, error);
    }
}
