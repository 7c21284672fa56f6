package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;

import java.util.function.Supplier;

/**
 * One event of a watch stream (watch.Event).
 *
 * @param type   what happened
 * @param object the object after the change (for DELETED: as it was deleted, with the deletion's
 *               resourceVersion; for BOOKMARK: only {@code metadata.resourceVersion}); null for ERROR
 * @param error  the error that ends the stream, for ERROR events only
 * @param json   the object's JSON encoding, computed at most once and shared by every watcher that
 *               receives this event (the watch cache fills it); null when the event carries none.
 *               An event with an encoding is shared: its object must not be changed.
 */
public record WatchEvent(Type type, ObjectNode object, StatusException error, Supplier<byte[]> json) {

    public enum Type { ADDED, MODIFIED, DELETED, BOOKMARK, ERROR }

    /** An event without a shared encoding; its receiver owns the object. */
    public WatchEvent(Type type, ObjectNode object, StatusException error) {
        this(type, object, error, null);
    }

    public static WatchEvent of(Type type, ObjectNode object) {
        return new WatchEvent(type, object, null);
    }

    public static WatchEvent error(StatusException error) {
        return new WatchEvent(Type.ERROR, null, error);
    }
}
