package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A watcher's live-event buffer: bounded, first in first out, and waiting only as long as asked. */
class EventBufferTest {
    private static WatchEvent event(int i) {
        return WatchEvent.of(WatchEvent.Type.MODIFIED, JsonNodeFactory.instance.objectNode().put("i", i));
    }

    @Test
    void holdsUpToItsCapacityInOrder() {
        EventBuffer b = new EventBuffer(2);
        WatchEvent e1 = event(1);
        WatchEvent e2 = event(2);

        assertTrue(b.offer(e1));
        assertTrue(b.offer(e2));
        assertFalse(b.offer(event(3)), "full");
        assertSame(e1, b.poll());
        assertTrue(b.offer(event(4)), "room again after a take");
        assertSame(e2, b.poll());
        assertEquals(4, b.poll().object().path("i").asInt());
        assertNull(b.poll());
        assertTrue(b.isEmpty());
    }

    @Test
    void aFullBufferRefusesAfterTheWaitUnlessTheReaderMakesRoom() throws Exception {
        EventBuffer b = new EventBuffer(1);
        b.offer(event(1));

        long start = System.nanoTime();
        assertFalse(b.offer(event(2), TimeUnit.MILLISECONDS.toNanos(30)));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(30), "waited the time given");

        CompletableFuture<WatchEvent> reader = CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return b.poll();
        });
        assertTrue(b.offer(event(3), TimeUnit.SECONDS.toNanos(10)), "queued once the reader took one");
        assertEquals(1, reader.get(10, TimeUnit.SECONDS).object().path("i").asInt());
        assertEquals(3, b.poll().object().path("i").asInt());
    }

    @Test
    void aReaderWaitsForAnEventOrGivesUp() throws Exception {
        EventBuffer b = new EventBuffer(4);

        assertNull(b.poll(TimeUnit.MILLISECONDS.toNanos(20)));
        CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            b.offer(event(7));
        });
        assertEquals(7, b.poll(TimeUnit.SECONDS.toNanos(10)).object().path("i").asInt());
    }

    @Test
    void clearEmptiesAndFreesTheRoom() {
        EventBuffer b = new EventBuffer(2);
        b.offer(event(1));
        b.offer(event(2));

        b.clear();

        assertTrue(b.isEmpty());
        assertTrue(b.offer(event(3)) && b.offer(event(4)), "the whole capacity is free again");
    }
}
