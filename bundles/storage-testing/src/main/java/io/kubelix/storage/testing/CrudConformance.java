package io.kubelix.storage.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageException.Code;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.ValidateObjectFunction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Create, get, delete, count and the revision sequence. */
public abstract class CrudConformance extends ConformanceSupport {

    @Test
    void createSetsResourceVersionAndGetReturnsIt() {
        long before = storage.currentResourceVersion();
        ObjectNode created = create("default", "a", "blue");
        assertTrue(rv(created) > before, "create gets a new revision");
        assertEquals(rv(created), storage.currentResourceVersion());
        ObjectNode got = storage.get(key("default", "a"), GetOptions.DEFAULT);
        assertEquals(created, got);
        assertEquals("blue", color(got));
    }

    @Test
    void createIgnoresResourceVersionOfInput() {
        ObjectNode input = configMap("default", "a", "blue");
        meta(input).put("resourceVersion", "987654321");
        ObjectNode created = storage.create(key("default", "a"), input);
        assertNotEquals(987654321L, rv(created));
        assertEquals(rv(created), rv(storage.get(key("default", "a"), GetOptions.DEFAULT)));
        assertEquals(rv(created), storage.currentResourceVersion());
    }

    @Test
    void createOnExistingKeyIsKeyExists() {
        ObjectNode first = create("default", "a", "blue");
        assertStorageError(Code.KEY_EXISTS, () -> create("default", "a", "red"));
        assertEquals(first, storage.get(key("default", "a"), GetOptions.DEFAULT), "unchanged");
        assertEquals(rv(first), storage.currentResourceVersion(), "nothing written");
    }

    @Test
    void getMissingIsKeyNotFoundOrNull() {
        create("default", "a", "blue");
        assertStorageError(Code.KEY_NOT_FOUND, () -> storage.get(key("default", "b"), GetOptions.DEFAULT));
        assertNull(storage.get(key("default", "b"), new GetOptions(true, "")));
        assertStorageError(Code.KEY_NOT_FOUND, () -> storage.get("/configmaps/default", GetOptions.DEFAULT));
    }

    @Test
    void objectsHandedOutAndInAreCopies() {
        ObjectNode input = configMap("default", "a", "blue");
        ObjectNode created = storage.create(key("default", "a"), input);
        withColor(input, "input-mutated");
        withColor(created, "result-mutated");
        ObjectNode got = storage.get(key("default", "a"), GetOptions.DEFAULT);
        assertEquals("blue", color(got));
        withColor(got, "get-mutated");
        meta(got).put("resourceVersion", "1");
        ObjectNode again = storage.get(key("default", "a"), GetOptions.DEFAULT);
        assertEquals("blue", color(again));
        assertEquals(rv(created), rv(again));
    }

    @Test
    void getWithResourceVersion() {
        ObjectNode a = create("default", "a", "blue");
        long current = storage.currentResourceVersion();
        assertEquals(a, storage.get(key("default", "a"), at("0")));
        assertEquals(a, storage.get(key("default", "a"), at(Long.toString(rv(a)))));
        assertEquals(a, storage.get(key("default", "a"), at(Long.toString(current))));
        assertStatus(504, () -> storage.get(key("default", "a"), at(Long.toString(current + 1000))));
        assertStatus(400, () -> storage.get(key("default", "a"), at("not-a-number")));
    }

    @Test
    void deleteReturnsObjectWithDeletionRevision() {
        ObjectNode a = create("default", "a", "blue");
        ObjectNode deleted = storage.delete(key("default", "a"), Preconditions.NONE, ValidateObjectFunction.NONE);
        assertTrue(rv(deleted) > rv(a), "deletion gets a new revision");
        assertEquals(rv(deleted), storage.currentResourceVersion());
        assertEquals("blue", color(deleted));
        assertEquals("a", name(deleted));
        assertNull(storage.get(key("default", "a"), new GetOptions(true, "")));
        assertStorageError(Code.KEY_NOT_FOUND,
                () -> storage.delete(key("default", "a"), Preconditions.NONE, ValidateObjectFunction.NONE));
        ObjectNode recreated = create("default", "a", "red");
        assertTrue(rv(recreated) > rv(deleted));
    }

    @Test
    void deleteChecksPreconditions() {
        ObjectNode a = create("default", "a", "blue");
        String uid = a.path("metadata").path("uid").asText();
        assertStorageError(Code.RESOURCE_VERSION_CONFLICTS, () -> storage.delete(key("default", "a"),
                new Preconditions("other-uid", null), ValidateObjectFunction.NONE));
        assertStorageError(Code.RESOURCE_VERSION_CONFLICTS, () -> storage.delete(key("default", "a"),
                new Preconditions(null, Long.toString(rv(a) + 1000)), ValidateObjectFunction.NONE));
        assertEquals(a, storage.get(key("default", "a"), GetOptions.DEFAULT), "still there");
        assertEquals(rv(a), storage.currentResourceVersion(), "nothing written");
        ObjectNode deleted = storage.delete(key("default", "a"),
                new Preconditions(uid, Long.toString(rv(a))), ValidateObjectFunction.NONE);
        assertEquals("a", name(deleted));
    }

    @Test
    void validateDeletionAbortsDelete() {
        ObjectNode a = create("default", "a", "blue");
        IllegalStateException boom = new IllegalStateException("not allowed");
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> storage.delete(key("default", "a"), Preconditions.NONE, obj -> {
                    assertEquals("blue", color(obj));
                    throw boom;
                }));
        assertSame(boom, thrown);
        assertEquals(a, storage.get(key("default", "a"), GetOptions.DEFAULT), "still there");
    }

    @Test
    void deleteRetriesChecksOnConcurrentWrite() throws Exception {
        create("default", "a", "blue");
        List<String> seen = new ArrayList<>();
        ObjectNode deleted = storage.delete(key("default", "a"), Preconditions.NONE, obj -> {
            seen.add(color(obj));
            if (seen.size() == 1) {
                runConcurrently(() -> storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                        (cur, rev) -> withColor(cur, "red")));
            }
        });
        assertEquals(List.of("blue", "red"), seen, "validation saw the first state, then the one deleted");
        assertEquals("red", color(deleted));
    }

    @Test
    void countCountsTheDirectory() {
        create("default", "a", "blue");
        create("default", "b", "blue");
        create("default2", "c", "blue");
        create("kube-system", "d", "blue");
        assertEquals(2, storage.count("/configmaps/default"));
        assertEquals(1, storage.count("/configmaps/default2"));
        assertEquals(4, storage.count("/configmaps"));
        assertEquals(0, storage.count("/configmaps/empty"));
        storage.delete(key("default", "a"), Preconditions.NONE, ValidateObjectFunction.NONE);
        assertEquals(1, storage.count("/configmaps/default"));
    }

    @Test
    void revisionsAreStrictlyIncreasingAndSharedAcrossResources() {
        StorageInterface secrets = backend.forResource(new StorageConfig(SECRETS, "/secrets"));
        long last = storage.currentResourceVersion();
        for (int i = 0; i < 5; i++) {
            long cm = rv(create("default", "cm" + i, "blue"));
            assertTrue(cm > last, "configmap revision increases");
            assertEquals(cm, secrets.currentResourceVersion(), "secrets see the same revision");
            long s = rv(secrets.create("/secrets/default/s" + i, configMap("default", "s" + i, "x")));
            assertTrue(s > cm, "secret revision increases past configmap's");
            assertEquals(s, storage.currentResourceVersion());
            last = s;
        }
        assertEquals(5, storage.count("/configmaps"), "resources do not see each other's keys");
        assertEquals(5, secrets.count("/secrets"));
    }

    @Test
    void versionerReadsAndWritesResourceVersion() {
        ObjectNode a = create("default", "a", "blue");
        assertEquals(rv(a), storage.versioner().objectResourceVersion(a));
        assertEquals(42, storage.versioner().parseResourceVersion("42"));
        assertEquals(0, storage.versioner().parseResourceVersion(""));
    }

    /** Runs {@code action} on another thread and waits for it, failing if it does not finish. */
    protected static void runConcurrently(Runnable action) {
        AtomicInteger failures = new AtomicInteger();
        Throwable[] error = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                action.run();
            } catch (Throwable e) {
                error[0] = e;
                failures.incrementAndGet();
            }
        }, "conformance-concurrent-writer");
        t.start();
        try {
            t.join(EVENT_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        if (t.isAlive()) {
            throw new AssertionError("a concurrent write blocked while a check or update function ran");
        }
        if (failures.get() > 0) {
            throw new AssertionError("concurrent write failed", error[0]);
        }
    }
}
