package io.kubelix.storage.memory;

import io.kubelix.support.storage.StoredEvent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EventLogTest {

    @Test
    void keepsTheLastNEventsInOrder() {
        EventLog log = new EventLog(3, 1);
        assertEquals(1, log.compactedRevision());
        assertNull(log.append(event(2)));
        assertNull(log.append(event(3)));
        assertNull(log.append(event(4)));
        assertEquals(2, log.append(event(5)).revision());
        assertEquals(2, log.compactedRevision());
        assertEquals(List.of(3L, 4L, 5L), after(log, 0));
        assertEquals(List.of(5L), after(log, 4));
        assertEquals(List.of(), after(log, 5));
        assertThrows(IllegalStateException.class, () -> log.append(event(7)));
    }

    @Test
    void evictsAndResizes() {
        EventLog log = new EventLog(4, 1);
        for (long r = 2; r <= 5; r++) {
            log.append(event(r));
        }
        assertEquals(List.of(2L, 3L), log.evictThrough(3).stream().map(StoredEvent::revision).toList());
        assertEquals(3, log.compactedRevision());
        log.append(event(6));
        assertEquals(List.of(4L), log.resize(2).stream().map(StoredEvent::revision).toList());
        assertEquals(List.of(5L, 6L), after(log, 0));
        log.append(event(7));
        assertEquals(List.of(6L, 7L), after(log, 0));
        log.resize(5);
        log.append(event(8));
        assertEquals(List.of(6L, 7L, 8L), after(log, 0));
    }

    private static List<Long> after(EventLog log, long rev) {
        List<Long> revs = new ArrayList<>();
        log.forEachAfter(rev, e -> revs.add(e.revision()));
        return revs;
    }

    private static StoredEvent event(long rev) {
        return new StoredEvent(rev, "/k", new byte[0], null);
    }
}
