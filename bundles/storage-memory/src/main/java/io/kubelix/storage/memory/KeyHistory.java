package io.kubelix.storage.memory;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

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
