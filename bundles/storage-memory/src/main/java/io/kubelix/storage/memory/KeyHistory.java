package io.kubelix.storage.memory;

import io.kubelix.support.storage.StoredEvent;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;

/**
 * The versions of one key within the retained window, by revision, so reads at an older revision
 * (EXACT reads, continued lists, the initial state of a watch) see the key as it was. Only the
 * store's write lock adds or prunes versions; readers need no lock.
 */
final class KeyHistory {
    /** Marks a delete; compared by identity. */
    private static final byte[] TOMBSTONE = new byte[0];

    private final ConcurrentSkipListMap<Long, byte[]> versions = new ConcurrentSkipListMap<>();

    /** The live version at {@code revision}, or null when the key was absent then. */
    Version at(long revision) {
        return live(versions.floorEntry(revision));
    }

    /** The newest version, or null when the key is absent now. */
    Version latest() {
        return live(versions.lastEntry());
    }

    void put(long revision, byte[] data) {
        versions.put(revision, data == null ? TOMBSTONE : data);
    }

    /** Visits every version held, oldest first; a delete's data is null. */
    void forEach(VersionVisitor visitor) throws IOException {
        for (Map.Entry<Long, byte[]> e : versions.entrySet()) {
            visitor.visit(e.getKey(), e.getValue() == TOMBSTONE ? null : e.getValue());
        }
    }

    /** How many versions are held. */
    int size() {
        return versions.size();
    }

    /** Visits one version of a key: its revision and bytes, null for a delete. */
    @FunctionalInterface
    interface VersionVisitor {
        void visit(long revision, byte[] data) throws IOException;
    }

    /**
     * The writes of {@code key} after {@code revision} as the event log keeps them, each with the
     * version it replaced: what the log held when the history was handed over.
     */
    void eventsAfter(long revision, String key, Consumer<StoredEvent> action) {
        byte[] previous = null;
        for (Map.Entry<Long, byte[]> e : versions.entrySet()) {
            byte[] data = e.getValue() == TOMBSTONE ? null : e.getValue();
            if (e.getKey() > revision) {
                action.accept(new StoredEvent(e.getKey(), key, data, previous));
            }
            previous = data;
        }
    }

    /**
     * Drops the versions no read at or after {@code compactedRevision} can see.
     *
     * @return true when the key holds nothing any more and can be forgotten
     */
    boolean compact(long compactedRevision) {
        Long floor = versions.floorKey(compactedRevision);
        if (floor == null) {
            return false;
        }
        versions.headMap(floor).clear();
        return versions.size() == 1 && versions.get(floor) == TOMBSTONE;
    }

    private static Version live(Map.Entry<Long, byte[]> e) {
        return e == null || e.getValue() == TOMBSTONE ? null : new Version(e.getKey(), e.getValue());
    }
}
