package io.kubelix.runtime.audit;

import io.kubelix.runtime.metrics.AuditMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The batch mode: batches by size and wait, nothing blocks, a full queue drops and counts. */
class BufferedBackendTest {
    private final AuditMetrics metrics = new AuditMetrics(new ServerMetrics());

    @Test
    void eventsGoInBatchesOfAtMostMaxSizeAndAllAreSentAtShutdown() {
        List<List<Event>> batches = Collections.synchronizedList(new ArrayList<>());
        BufferedBackend b = new BufferedBackend(collecting(batches, null), new BufferedBackend.BatchConfig(100, 3,
                Duration.ofSeconds(30), 0, 0, false), metrics, "test");
        for (int i = 0; i < 7; i++) {
            b.processEvents(List.of(event("e" + i)));
        }
        b.shutdown();
        assertEquals(7, batches.stream().mapToInt(List::size).sum());
        assertTrue(batches.stream().allMatch(batch -> batch.size() <= 3), batches.toString());
        assertEquals("e6", batches.get(batches.size() - 1).get(batches.get(batches.size() - 1).size() - 1).auditID());
    }

    @Test
    void aBatchIsSentAfterMaxWaitEvenWhenNotFull() throws Exception {
        CountDownLatch sent = new CountDownLatch(1);
        List<List<Event>> batches = Collections.synchronizedList(new ArrayList<>());
        BufferedBackend b = new BufferedBackend(collecting(batches, sent), new BufferedBackend.BatchConfig(100, 400,
                Duration.ofMillis(100), 0, 0, true), metrics, "test");
        b.processEvents(List.of(event("a"), event("b")));
        assertTrue(sent.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("a", "b"), batches.get(0).stream().map(Event::auditID).toList());
        b.shutdown();
    }

    @Test
    void aFullQueueDropsEventsAsErrorsWithoutBlocking() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AuditBackend stuck = new AuditBackend() {
            @Override
            public boolean processEvents(List<Event> events) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }

            @Override
            public void shutdown() {
            }
        };
        BufferedBackend b = new BufferedBackend(stuck, new BufferedBackend.BatchConfig(2, 1, Duration.ZERO, 0, 0, false),
                metrics, "test");
        long begin = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            assertTrue(b.processEvents(List.of(event("e" + i))));
        }
        assertTrue(System.nanoTime() - begin < TimeUnit.SECONDS.toNanos(2));
        assertTrue(metrics.errorCount("buffered") >= 7, "dropped: " + metrics.errorCount("buffered"));
        release.countDown();
        b.shutdown();
    }

    private static AuditBackend collecting(List<List<Event>> batches, CountDownLatch sent) {
        return new AuditBackend() {
            @Override
            public boolean processEvents(List<Event> events) {
                batches.add(List.copyOf(events));
                if (sent != null) {
                    sent.countDown();
                }
                return true;
            }

            @Override
            public void shutdown() {
            }
        };
    }

    static Event event(String id) {
        return new Event(Level.Metadata, id, Stage.ResponseComplete, "/api", "get", null, null, List.of(), "", null,
                null, null, null, Instant.EPOCH, Instant.EPOCH, Map.of());
    }
}
