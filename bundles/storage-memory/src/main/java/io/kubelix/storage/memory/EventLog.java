package io.kubelix.storage.memory;

import io.kubelix.support.storage.StoredEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The last N writes, one per revision, in a ring buffer: what a watch from a recent revision
 * replays. Its oldest retained revision defines the window (etcd's compaction): a watch from an
 * older revision cannot be served. Guarded by the store's write lock.
 */
final class EventLog {
    private StoredEvent[] ring;
    /** Revision of the oldest retained event; {@code oldest > newest} when empty. */
    private long oldest;
    private long newest;

    EventLog(int capacity, long currentRevision) {
        ring = new StoredEvent[requirePositive(capacity)];
        newest = currentRevision;
        oldest = currentRevision + 1;
    }

    int capacity() {
        return ring.length;
    }

    /** Drops every event and starts again after {@code currentRevision}, which becomes the compacted revision. */
    void restart(long currentRevision) {
        java.util.Arrays.fill(ring, null);
        newest = currentRevision;
        oldest = currentRevision + 1;
    }

    /** The newest revision whose event is no longer retained. */
    long compactedRevision() {
        return oldest - 1;
    }

    /** The revision of the newest event. */
    long newestRevision() {
        return newest;
    }

    /** Appends the next revision's event; returns the event evicted to make room, or null. */
    StoredEvent append(StoredEvent e) {
        if (e.revision() != newest + 1) {
            throw new IllegalStateException("event " + e.revision() + " does not follow " + newest);
        }
        StoredEvent evicted = null;
        if (newest - oldest + 1 == ring.length) {
            evicted = ring[index(oldest)];
            oldest++;
        }
        newest = e.revision();
        ring[index(newest)] = e;
        return evicted;
    }

    /** Evicts every event up to {@code revision}, returning them oldest first. */
    List<StoredEvent> evictThrough(long revision) {
        List<StoredEvent> evicted = new ArrayList<>();
        while (oldest <= Math.min(revision, newest)) {
            int i = index(oldest);
            evicted.add(ring[i]);
            ring[i] = null;
            oldest++;
        }
        return evicted;
    }

    /** Changes the capacity, evicting the oldest events that no longer fit; returns them. */
    List<StoredEvent> resize(int capacity) {
        List<StoredEvent> evicted = evictThrough(newest - requirePositive(capacity));
        StoredEvent[] next = new StoredEvent[capacity];
        for (long r = oldest; r <= newest; r++) {
            next[(int) (r % capacity)] = ring[index(r)];
        }
        ring = next;
        return evicted;
    }

    /** Calls {@code action} with every retained event after {@code revision}, in order. */
    void forEachAfter(long revision, Consumer<StoredEvent> action) {
        for (long r = Math.max(revision + 1, oldest); r <= newest; r++) {
            action.accept(ring[index(r)]);
        }
    }

    private int index(long revision) {
        return (int) (revision % ring.length);
    }

    private static int requirePositive(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("event history size must be positive: " + capacity);
        }
        return capacity;
    }
}
