package io.kubelix.resource.core.service;

import io.kubelix.api.storage.GetOptions;
import io.kubelix.resource.core.testing.MemoryRanges;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RangeAllocatorTest {
    private final MemoryRanges memory = new MemoryRanges();

    @AfterEach
    void close() {
        memory.close();
    }

    private RangeAllocator allocator(int size) {
        return new RangeAllocator(memory.storage(ServiceAllocators.RANGES_PREFIX), "/ranges/serviceips", "10.0.0.0/24", size);
    }

    @Test
    void aRequestedItemIsReservedOnceAndFreeAgainAfterRelease() {
        RangeAllocator a = allocator(254);
        assertTrue(a.allocate(9));
        assertFalse(a.allocate(9), "taken");
        assertTrue(a.isAllocated(9));
        a.release(9);
        assertFalse(a.isAllocated(9));
        assertTrue(a.allocate(9), "free for reuse");
    }

    @Test
    void dynamicItemsComeFromTheUpperBandUntilItIsFullThenTheLowerOneThenNone() {
        RangeAllocator a = allocator(40); // offset 16
        assertEquals(16, a.offset());
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 24; i++) {
            int item = a.allocateNext();
            assertTrue(item >= 16 && item < 40, "upper band first: " + item);
            assertTrue(seen.add(item));
        }
        for (int i = 0; i < 16; i++) {
            int item = a.allocateNext();
            assertTrue(item >= 0 && item < 16, "then the lower band: " + item);
            assertTrue(seen.add(item));
        }
        assertEquals(-1, a.allocateNext(), "full");
        assertEquals(-1, a.peekNext());
    }

    @Test
    void kubesBandOffsetRule() {
        assertEquals(0, RangeAllocator.bandOffset(14));
        assertEquals(16, RangeAllocator.bandOffset(254));
        assertEquals(173, RangeAllocator.bandOffset(2768));
        assertEquals(256, RangeAllocator.bandOffset(65534));
    }

    @Test
    void theRecordIsKubesRangeAllocationAndSurvivesANewAllocatorOnTheSameStorage() {
        RangeAllocator a = allocator(254);
        a.allocate(0);
        a.allocate(9);
        var stored = memory.storage(ServiceAllocators.RANGES_PREFIX).get("/ranges/serviceips", GetOptions.DEFAULT);
        assertEquals("RangeAllocation", stored.path("kind").asText());
        assertEquals("10.0.0.0/24", stored.path("range").asText());
        assertEquals("AgE=", stored.path("data").asText(), "big-endian bytes of 2^9 + 2^0, as Go's big.Int.Bytes");
        RangeAllocator restarted = allocator(254);
        assertTrue(restarted.isAllocated(9));
        assertFalse(restarted.allocate(0));
    }

    @Test
    void aRecordOfAnotherRangeReadsAsEmpty() {
        allocator(254).allocate(5);
        RangeAllocator other = new RangeAllocator(memory.storage(ServiceAllocators.RANGES_PREFIX), "/ranges/serviceips", "10.96.0.0/28", 14);
        assertFalse(other.isAllocated(5));
        assertTrue(other.allocate(5));
    }

    @Test
    void concurrentAllocatorsOnOneRecordNeverHandOutAnItemTwice() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                // Each task uses its own allocator, as separate servers on one etcd would.
                tasks.add(() -> allocator(254).allocateNext());
            }
            Set<Integer> items = new HashSet<>();
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                int item = f.get();
                assertTrue(item >= 0);
                assertTrue(items.add(item), "handed out twice: " + item);
            }
            assertEquals(200, allocator(254).read().cardinality());
        } finally {
            pool.shutdownNow();
        }
    }
}
