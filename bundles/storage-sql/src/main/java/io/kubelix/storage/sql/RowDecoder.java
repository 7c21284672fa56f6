package io.kubelix.storage.sql;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.support.storage.JsonCodec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;

/**
 * Decodes the rows of a whole list (the watch cache's first list reads every object) on the common
 * pool while the reading thread fetches the next rows: batches of {@value #BATCH} rows, at most
 * {@value #IN_FLIGHT} of them waiting, so only a few thousand rows are held besides the decoded
 * objects. The objects that match come out in the rows' order; a list shorter than one batch is
 * decoded by the reading thread alone.
 */
final class RowDecoder {
    private static final int BATCH = 512;
    private static final int IN_FLIGHT = 4;

    private final JsonCodec codec;
    private final SelectionPredicate predicate;
    private final List<ObjectNode> out = new ArrayList<>();
    private final ArrayDeque<CompletableFuture<List<ObjectNode>>> pending = new ArrayDeque<>();
    private Batch batch = new Batch();

    RowDecoder(JsonCodec codec, SelectionPredicate predicate) {
        this.codec = codec;
        this.predicate = predicate;
    }

    /** Takes one row; it is decoded later, in order. */
    void add(String key, long modRevision, byte[] data) {
        batch.add(key, modRevision, data);
        if (batch.size == BATCH) {
            Batch full = batch;
            batch = new Batch();
            if (pending.size() == IN_FLIGHT) {
                out.addAll(join(pending.poll()));
            }
            pending.add(CompletableFuture.supplyAsync(() -> full.decode(codec, predicate), ForkJoinPool.commonPool()));
        }
    }

    /** The matching objects of every row taken, in order; a decoding failure is thrown here. */
    List<ObjectNode> finish() {
        while (!pending.isEmpty()) {
            out.addAll(join(pending.poll()));
        }
        out.addAll(batch.decode(codec, predicate));
        return out;
    }

    private static List<ObjectNode> join(CompletableFuture<List<ObjectNode>> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** Rows read and not decoded yet. */
    private static final class Batch {
        private final String[] keys = new String[BATCH];
        private final long[] revisions = new long[BATCH];
        private final byte[][] data = new byte[BATCH][];
        private int size;

        void add(String key, long modRevision, byte[] value) {
            keys[size] = key;
            revisions[size] = modRevision;
            data[size] = value;
            size++;
        }

        List<ObjectNode> decode(JsonCodec codec, SelectionPredicate predicate) {
            boolean everything = predicate.matchesEverything();
            List<ObjectNode> objects = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                ObjectNode obj = codec.decode(keys[i], data[i], revisions[i]);
                if (everything || predicate.matches(obj)) {
                    objects.add(obj);
                }
            }
            return objects;
        }
    }
}
