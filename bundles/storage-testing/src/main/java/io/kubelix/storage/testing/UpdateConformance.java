package io.kubelix.storage.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageException.Code;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** guaranteedUpdate: retries, no-op updates, create on update, preconditions, errors. */
public abstract class UpdateConformance extends CrudConformance {

    @Test
    void updateWritesNewRevision() {
        ObjectNode a = create("default", "a", "blue");
        ObjectNode updated = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE, (cur, rev) -> {
            assertEquals(rv(a), rev, "the function gets the current object's revision");
            assertEquals(rv(a), rv(cur));
            return withColor(cur, "red");
        });
        assertTrue(rv(updated) > rv(a));
        assertEquals("red", color(updated));
        assertEquals(updated, storage.get(key("default", "a"), GetOptions.DEFAULT));
        assertEquals(rv(updated), storage.currentResourceVersion());
    }

    @Test
    void updateIgnoresResourceVersionOfResult() {
        create("default", "a", "blue");
        ObjectNode updated = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE, (cur, rev) -> {
            meta(cur).put("resourceVersion", "987654321");
            return withColor(cur, "red");
        });
        assertEquals(storage.currentResourceVersion(), rv(updated));
        assertEquals(rv(updated), rv(storage.get(key("default", "a"), GetOptions.DEFAULT)));
    }

    @Test
    void updateOfMissingObject() {
        assertStorageError(Code.KEY_NOT_FOUND, () -> storage.guaranteedUpdate(key("default", "a"), false,
                Preconditions.NONE, (cur, rev) -> cur));
        ObjectNode created = storage.guaranteedUpdate(key("default", "a"), true, Preconditions.NONE, (cur, rev) -> {
            assertNull(cur, "a missing object is passed as null");
            return configMap("default", "a", "green");
        });
        assertEquals("green", color(created));
        assertEquals(rv(created), storage.currentResourceVersion());
        assertEquals(created, storage.get(key("default", "a"), GetOptions.DEFAULT));
    }

    @Test
    void noOpUpdateWritesNothing() {
        ObjectNode a = create("default", "a", "blue");
        ObjectNode same = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE, (cur, rev) -> cur);
        assertEquals(rv(a), rv(same));
        assertEquals(a, same);
        ObjectNode rebuilt = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                (cur, rev) -> cur.deepCopy());
        assertEquals(rv(a), rv(rebuilt), "an equal copy is a no-op too");
        assertEquals(rv(a), storage.currentResourceVersion(), "no revision was spent");
    }

    @Test
    void updateChecksPreconditions() {
        ObjectNode a = create("default", "a", "blue");
        String uid = a.path("metadata").path("uid").asText();
        assertStorageError(Code.RESOURCE_VERSION_CONFLICTS, () -> storage.guaranteedUpdate(key("default", "a"),
                false, new Preconditions("other", null), (cur, rev) -> withColor(cur, "red")));
        assertStorageError(Code.RESOURCE_VERSION_CONFLICTS, () -> storage.guaranteedUpdate(key("default", "a"),
                false, new Preconditions(null, Long.toString(rv(a) + 1000)), (cur, rev) -> withColor(cur, "red")));
        assertEquals(rv(a), storage.currentResourceVersion(), "nothing written");
        ObjectNode updated = storage.guaranteedUpdate(key("default", "a"), false,
                new Preconditions(uid, Long.toString(rv(a))), (cur, rev) -> withColor(cur, "red"));
        assertEquals("red", color(updated));
    }

    @Test
    void updateFunctionErrorPassesThrough() {
        ObjectNode a = create("default", "a", "blue");
        StatusException denied = StatusException.badRequest("denied by the update function");
        StatusException thrown = assertThrows(StatusException.class, () -> storage.guaranteedUpdate(
                key("default", "a"), false, Preconditions.NONE, (cur, rev) -> {
                    throw denied;
                }));
        assertSame(denied, thrown);
        assertEquals(rv(a), storage.currentResourceVersion(), "nothing written");
    }

    @Test
    void updateRetriesWithFreshStateOnConcurrentWrite() {
        create("default", "a", "0");
        List<String> seen = new ArrayList<>();
        ObjectNode result = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE, (cur, rev) -> {
            seen.add(color(cur));
            if (seen.size() == 1) {
                runConcurrently(() -> storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                        (c, r) -> withColor(c, Integer.toString(Integer.parseInt(color(c)) + 1))));
            }
            return withColor(cur, Integer.toString(Integer.parseInt(color(cur)) + 1));
        });
        assertEquals(List.of("0", "1"), seen, "retried with the concurrent writer's state");
        assertEquals("2", color(result));
    }

    @Test
    void concurrentUpdatesLoseNothing() throws Exception {
        int threads = 8;
        int increments = 50;
        ObjectNode start = create("default", "counter", "0");
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        List<Long> revisions = Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < increments; i++) {
                        ObjectNode r = storage.guaranteedUpdate(key("default", "counter"), false, Preconditions.NONE,
                                (cur, rev) -> {
                                    calls.incrementAndGet();
                                    return withColor(cur, Integer.toString(Integer.parseInt(color(cur)) + 1));
                                });
                        revisions.add(rv(r));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        ObjectNode end = storage.get(key("default", "counter"), GetOptions.DEFAULT);
        assertEquals(Integer.toString(threads * increments), color(end), "no increment lost");
        assertEquals(threads * increments, revisions.stream().distinct().count(), "every write got its own revision");
        assertTrue(revisions.stream().allMatch(r -> r > rv(start)));
        assertTrue(calls.get() >= threads * increments);
        assertEquals(revisions.stream().mapToLong(Long::longValue).max().orElseThrow(), rv(end));
    }

    @Test
    void updateFromCachedCopy() {
        ObjectNode a = create("default", "a", "blue");
        ObjectNode updated = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE, (cur, rev) -> {
            assertEquals(rv(a), rev);
            assertEquals(a, cur, "a current copy is the object the function gets");
            return withColor(cur, "red");
        }, a.deepCopy());
        assertEquals("red", color(updated));
        assertEquals(updated, storage.get(key("default", "a"), GetOptions.DEFAULT));
    }

    @Test
    void staleCachedCopyLosesNoUpdate() {
        ObjectNode a = create("default", "a", "blue");
        ObjectNode b = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                (cur, rev) -> withColor(cur, "red"));
        ObjectNode updated = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                (cur, rev) -> withColor(cur, color(cur) + "+green"), a.deepCopy());
        assertEquals("red+green", color(updated), "the update applies to the current object, not the stale copy");
        assertTrue(rv(updated) > rv(b));
        ObjectNode deleted = storage.delete(key("default", "a"), Preconditions.NONE, null, a.deepCopy());
        assertEquals("red+green", color(deleted), "a delete returns the object it deleted, not the stale copy");
        assertNull(storage.get(key("default", "a"), new GetOptions(true, "")));
    }
}
