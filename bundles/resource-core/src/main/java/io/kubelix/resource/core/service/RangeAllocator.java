package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;

import java.util.Base64;
import java.util.BitSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * A bitmap of {@code size} items kept in storage as kube keeps its service allocators': one
 * {@code RangeAllocation} object ({@code range} and {@code data}, the bitmap as the big-endian bytes
 * of a number whose bit i is item i) under a key such as {@code /ranges/serviceips}. Every change
 * is a {@link StorageInterface#guaranteedUpdate}, so concurrent allocations, in this process or in
 * another server on the same etcd, never hand out one item twice.
 *
 * <p>A record written for another range (the flag changed) is read as empty; the repair pass
 * then marks the items of existing objects again.
 *
 * <p>Items are drawn as kube's allocators draw them (randomScanStrategyWithOffset): dynamic
 * allocations prefer the upper band, above {@link #offset()}, so the lower band stays free for
 * items that clients ask for by value.
 */
final class RangeAllocator {
    private final StorageInterface storage;
    private final String key;
    private final String range;
    private final int size;
    private final int offset;

    RangeAllocator(StorageInterface storage, String key, String range, int size) {
        this.storage = storage;
        this.key = key;
        this.range = range;
        this.size = size;
        this.offset = bandOffset(size);
    }

    /** kube's calculateRangeOffset: size/16, at least 16 and at most 256; 0 for ranges under 16. */
    static int bandOffset(int size) {
        if (size < 16) {
            return 0;
        }
        return Math.max(16, Math.min(256, size / 16));
    }

    int size() {
        return size;
    }

    int offset() {
        return offset;
    }

    /**
     * Marks {@code item} allocated.
     *
     * @return false when it already was (nothing is written)
     */
    boolean allocate(int item) {
        checkItem(item);
        boolean[] fresh = new boolean[1];
        update(bits -> {
            fresh[0] = !bits.get(item);
            if (!fresh[0]) {
                return null;
            }
            bits.set(item);
            return bits;
        });
        return fresh[0];
    }

    /** Marks a free item allocated and returns it, or -1 when every item is taken. */
    int allocateNext() {
        int[] chosen = new int[1];
        update(bits -> {
            chosen[0] = pickFree(bits);
            if (chosen[0] < 0) {
                return null;
            }
            bits.set(chosen[0]);
            return bits;
        });
        return chosen[0];
    }

    /** Marks {@code item} free; releasing a free item changes nothing. */
    void release(int item) {
        if (item < 0 || item >= size) {
            return;
        }
        update(bits -> {
            if (!bits.get(item)) {
                return null;
            }
            bits.clear(item);
            return bits;
        });
    }

    /** Whether {@code item} is allocated (a consistent read). */
    boolean isAllocated(int item) {
        return item >= 0 && item < size && read().get(item);
    }

    /** A free item as {@link #allocateNext} would choose it, without taking it (dry run); -1 when full. */
    int peekNext() {
        return pickFree(read());
    }

    /** The allocated items (a consistent read). */
    BitSet read() {
        return snapshot().bits();
    }

    /** The allocated items and the record's resourceVersion ("" when there is no record yet). */
    Snapshot snapshot() {
        ObjectNode stored = storage.get(key, new GetOptions(true, ""));
        String version = stored == null ? "" : String.valueOf(storage.versioner().objectResourceVersion(stored));
        return new Snapshot(decode(stored), version);
    }

    /** The record as read at one resourceVersion. */
    record Snapshot(BitSet bits, String resourceVersion) {
    }

    /**
     * Writes {@code bits} if the record is still at {@code snapshot}'s version.
     *
     * @return false when it changed meanwhile (nothing is written)
     */
    boolean replace(Snapshot snapshot, BitSet bits) {
        if (snapshot.resourceVersion().isEmpty()) {
            boolean[] unchanged = new boolean[1];
            update(current -> {
                unchanged[0] = current.equals(snapshot.bits());
                return unchanged[0] ? bits : null;
            });
            return unchanged[0];
        }
        try {
            storage.guaranteedUpdate(key, false, new Preconditions(null, snapshot.resourceVersion()),
                    (current, revision) -> encode(bits));
            return true;
        } catch (StorageException e) {
            if (e.code() == StorageException.Code.RESOURCE_VERSION_CONFLICTS) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Changes the bitmap with {@code change}, which gets the current bits and returns the bits to
     * store, or null to leave the record as it is. It may run more than once (on a conflict).
     */
    void update(UnaryOperator<BitSet> change) {
        storage.guaranteedUpdate(key, true, Preconditions.NONE, (current, revision) -> {
            BitSet bits = change.apply(decode(current));
            if (bits == null) {
                return current != null ? current : encode(new BitSet());
            }
            return encode(bits);
        });
    }

    private int pickFree(BitSet bits) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int upper = scan(bits, offset, size, random);
        return upper >= 0 ? upper : scan(bits, 0, offset, random);
    }

    /** A free item in [from, to), scanning from a random start and wrapping around; -1 when none. */
    private static int scan(BitSet bits, int from, int to, ThreadLocalRandom random) {
        if (to <= from) {
            return -1;
        }
        int start = from + random.nextInt(to - from);
        int free = bits.nextClearBit(start);
        if (free < to) {
            return free;
        }
        free = bits.nextClearBit(from);
        return free < start ? free : -1;
    }

    private BitSet decode(ObjectNode stored) {
        if (stored == null || !range.equals(stored.path("range").asText())) {
            return new BitSet(size);
        }
        byte[] bigEndian = Base64.getDecoder().decode(stored.path("data").asText(""));
        byte[] littleEndian = new byte[bigEndian.length];
        for (int i = 0; i < bigEndian.length; i++) {
            littleEndian[bigEndian.length - 1 - i] = bigEndian[i];
        }
        BitSet bits = BitSet.valueOf(littleEndian);
        if (bits.length() > size) {
            bits.clear(size, bits.length());
        }
        return bits;
    }

    private ObjectNode encode(BitSet bits) {
        byte[] littleEndian = bits.toByteArray();
        byte[] bigEndian = new byte[littleEndian.length];
        for (int i = 0; i < littleEndian.length; i++) {
            bigEndian[littleEndian.length - 1 - i] = littleEndian[i];
        }
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.put("kind", "RangeAllocation");
        obj.put("apiVersion", "v1");
        obj.putObject("metadata");
        obj.put("range", range);
        obj.put("data", Base64.getEncoder().encodeToString(bigEndian));
        return obj;
    }

    private void checkItem(int item) {
        if (item < 0 || item >= size) {
            throw new IllegalArgumentException("item " + item + " is outside the range " + range);
        }
    }
}
