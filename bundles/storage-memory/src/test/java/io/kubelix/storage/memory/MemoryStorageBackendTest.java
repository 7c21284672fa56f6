package io.kubelix.storage.memory;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What is particular to the memory backend: its window, watcher queues, bookmarks and configuration. */
class MemoryStorageBackendTest {
    private static final StorageConfig CONFIGMAPS = new StorageConfig(GroupResource.of("", "configmaps"), "/configmaps");

    private MemoryStorageBackend backend;

    @AfterEach
    void tearDown() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    @Test
    void revisionsOlderThanTheEventHistoryAreExpired() throws Exception {
        backend = new MemoryStorageBackend(5, 100, Duration.ofSeconds(10));
        StorageInterface s = backend.forResource(CONFIGMAPS);
        long first = rv(s.create("/configmaps/default/a", object("a", 0)));
        for (int i = 1; i <= 10; i++) {
            update(s, "a", i);
        }
        long current = s.currentResourceVersion();
        assertEquals(first + 10, current);
        long oldest = current - 5;

        StatusException e = assertThrows(StatusException.class, () -> watch(s, first));
        assertEquals(410, e.code());
        assertEquals(StatusReason.EXPIRED, e.reason());
        assertEquals("too old resource version: " + first + " (" + oldest + ")", e.getMessage());
        assertThrows(StatusException.class, () -> watch(s, oldest - 1));
        assertEquals(410, assertThrows(StatusException.class, () -> s.getList("/configmaps",
                new ListOptions(Long.toString(oldest - 1), ResourceVersionMatch.EXACT, null, true, 0, null, false))).code());

        ListResult atOldest = s.getList("/configmaps",
                new ListOptions(Long.toString(oldest), ResourceVersionMatch.EXACT, null, true, 0, null, false));
        assertEquals(5, atOldest.items().get(0).path("data").path("n").asInt(), "the oldest retained state is readable");
        Watch w = watch(s, oldest);
        for (int i = 6; i <= 10; i++) {
            assertEquals(i, next(w).object().path("data").path("n").asInt(), "every retained event is replayed");
        }
        w.close();
    }

    @Test
    void continueTokenExpiresWhenItsRevisionLeavesTheWindow() {
        backend = new MemoryStorageBackend(3, 100, Duration.ofSeconds(10));
        StorageInterface s = backend.forResource(CONFIGMAPS);
        for (String n : new String[] {"a", "b", "c"}) {
            s.create("/configmaps/default/" + n, object(n, 0));
        }
        ListResult page = s.getList("/configmaps", new ListOptions("", null, null, true, 1, null, false));
        assertNotNull(page.continueToken());
        ListResult stillFine = s.getList("/configmaps", new ListOptions("", null, null, true, 1, page.continueToken(), false));
        assertEquals("b", stillFine.items().get(0).path("metadata").path("name").asText());
        for (int i = 1; i <= 4; i++) {
            update(s, "c", i);
        }
        StatusException e = assertThrows(StatusException.class,
                () -> s.getList("/configmaps", new ListOptions("", null, null, true, 1, page.continueToken(), false)));
        assertEquals(410, e.code());
        assertTrue(e.getMessage().contains("continue parameter is too old"), e.getMessage());
    }

    @Test
    void slowWatcherIsEndedWithoutBlockingWriters() throws Exception {
        backend = new MemoryStorageBackend(1000, 10, Duration.ofSeconds(10));
        StorageInterface s = backend.forResource(CONFIGMAPS);
        Watch slow = watch(s, s.currentResourceVersion());
        Watch fast = watch(s, s.currentResourceVersion());
        s.create("/configmaps/default/a", object("a", 0));
        assertEquals(WatchEvent.Type.ADDED, next(fast).type());
        for (int i = 1; i <= 50; i++) {
            update(s, "a", i);
            assertEquals(i, next(fast).object().path("data").path("n").asInt());
        }
        assertFalse(slow.done(), "what was queued before it fell behind is still delivered");
        for (int i = 0; i < 10; i++) {
            assertEquals(i, next(slow).object().path("data").path("n").asInt());
        }
        assertNull(slow.next(Duration.ofMillis(100)));
        assertTrue(slow.done(), "the slow watch ended; its client re-watches");
        update(s, "a", 51);
        assertEquals(51, next(fast).object().path("data").path("n").asInt(), "other watchers keep going");
        fast.close();
    }

    @Test
    void idleWatchesGetBookmarksOnlyWhenTheyAskForThem() throws Exception {
        backend = new MemoryStorageBackend(1000, 100, Duration.ofMillis(50));
        StorageInterface s = backend.forResource(CONFIGMAPS);
        s.create("/configmaps/default/a", object("a", 0));
        Watch plain = watch(s, s.currentResourceVersion());
        Watch notified = s.watch("/configmaps", new ListOptions(Long.toString(s.currentResourceVersion()), null,
                SelectionPredicate.EVERYTHING, true, 0, null, true));
        long rev = rv(update(s, "a", 1));
        assertEquals(WatchEvent.Type.MODIFIED, next(notified).type());
        WatchEvent bookmark = next(notified);
        assertEquals(WatchEvent.Type.BOOKMARK, bookmark.type());
        assertEquals(rev, rv(bookmark.object()));
        assertEquals(WatchEvent.Type.MODIFIED, next(plain).type());
        assertNull(plain.next(Duration.ofMillis(300)), "no bookmarks without progressNotify");
        plain.close();
        notified.close();
    }

    @Test
    void deactivateEndsWatches() throws Exception {
        backend = new MemoryStorageBackend(1000, 100, Duration.ofSeconds(10));
        StorageInterface s = backend.forResource(CONFIGMAPS);
        Watch w = watch(s, s.currentResourceVersion());
        backend.deactivate();
        backend = null;
        assertNull(w.next(Duration.ofSeconds(5)));
        assertTrue(w.done());
    }

    @Test
    void configurationChangesKeepTheDataAndResizeTheWindow() {
        backend = new MemoryStorageBackend(config(100, 100, 1000));
        StorageInterface s = backend.forResource(CONFIGMAPS);
        long first = rv(s.create("/configmaps/default/a", object("a", 0)));
        for (int i = 1; i <= 10; i++) {
            update(s, "a", i);
        }
        watch(s, first).close();
        backend.modified(config(3, 10, 500));
        assertEquals(10, s.get("/configmaps/default/a", io.kubelix.api.storage.GetOptions.DEFAULT)
                .path("data").path("n").asInt(), "data survives reconfiguration");
        assertEquals(410, assertThrows(StatusException.class, () -> watch(s, first)).code());
        watch(s, s.currentResourceVersion() - 3).close();
    }

    @Test
    void historyOfDeletedKeysIsForgottenOutsideTheWindow() {
        MvccStore store = new MvccStore(4);
        for (int i = 0; i < 100; i++) {
            long rev = store.write("/k/" + i, 0, new byte[] {'{', '}'});
            assertTrue(store.write("/k/" + i, rev, null) > rev);
        }
        assertTrue(store.keyCount() <= 2, "only keys deleted within the window are remembered: " + store.keyCount());
        assertEquals(201, store.currentRevision());
        assertEquals(197, store.compactedRevision());
    }

    @Test
    void theNextVersionOfTheBundleTakesOverEveryObjectWithItsResourceVersion(@TempDir Path dataArea) throws Exception {
        Path handover = dataArea.resolve("handover.snapshot");
        MemoryStorageBackend old = handingOver(100, handover);
        StorageInterface s = old.forResource(CONFIGMAPS);
        s.create("/configmaps/default/a", object("a", 0));
        s.create("/configmaps/default/b", object("b", 0));
        ObjectNode b = update(s, "b", 1);
        s.create("/configmaps/default/gone", object("gone", 0));
        ObjectNode a = update(s, "a", 2);
        s.delete("/configmaps/default/gone", Preconditions.NONE, null);
        long revision = s.currentResourceVersion();
        old.deactivate();

        backend = handingOver(100, handover);
        StorageInterface next = backend.forResource(CONFIGMAPS);
        ListResult list = next.getList("/configmaps", ListOptions.recursiveAll());
        assertEquals(List.of(a, b), list.items(), "the live objects, each at the revision of its last write");
        assertEquals(revision, next.currentResourceVersion());
        assertEquals(revision + 1, rv(update(next, "a", 3)), "the revision sequence goes on");
        assertFalse(Files.exists(handover), "the hand-over is read once");
        ListResult beforeDelete = next.getList("/configmaps",
                new ListOptions(Long.toString(revision - 1), ResourceVersionMatch.EXACT, null, true, 0, null, false));
        assertEquals(List.of("a", "b", "gone"), names(beforeDelete.items()), "the history comes along");
    }

    /**
     * Two hand-overs in a row (an update, then the refresh after it) with writes in between: a watch
     * from a revision taken before both, or from where a watch of the first version ended, gets every
     * later write once and in order from the third version.
     */
    @Test
    void aWatchFromBeforeTwoHandOversInARowGetsEveryWriteOnceAndInOrder(@TempDir Path dataArea) throws Exception {
        Path handover = dataArea.resolve("handover.snapshot");
        MemoryStorageBackend first = handingOver(100, handover);
        StorageInterface s1 = first.forResource(CONFIGMAPS);
        long start = rv(s1.create("/configmaps/default/a", object("a", 0)));
        Watch early = s1.watch("/configmaps", new ListOptions(Long.toString(start), null, SelectionPredicate.EVERYTHING,
                true, 0, null, true));
        update(s1, "a", 1);
        s1.create("/configmaps/default/b", object("b", 0));
        first.deactivate();
        List<String> seenByEarly = new ArrayList<>();
        long endedAt = drain(early, seenByEarly);
        assertEquals(List.of("MODIFIED a 1", "ADDED b 0"), seenByEarly);

        MemoryStorageBackend second = handingOver(100, handover);
        StorageInterface s2 = second.forResource(CONFIGMAPS);
        update(s2, "a", 2);
        s2.delete("/configmaps/default/b", Preconditions.NONE, null);
        s2.create("/configmaps/default/c", object("c", 0));
        second.deactivate();

        backend = handingOver(100, handover);
        StorageInterface s3 = backend.forResource(CONFIGMAPS);
        update(s3, "c", 1);
        long last = s3.currentResourceVersion();

        List<String> fromStart = new ArrayList<>();
        assertEquals(last, take(watch(s3, start), 6, fromStart, start));
        assertEquals(List.of("MODIFIED a 1", "ADDED b 0", "MODIFIED a 2", "DELETED b 0", "ADDED c 0", "MODIFIED c 1"),
                fromStart, "every write since the watch's revision, once and in order");
        List<String> resumed = new ArrayList<>();
        assertEquals(last, take(watch(s3, endedAt), 4, resumed, endedAt));
        assertEquals(fromStart.subList(2, 6), resumed, "where the first version's watch ended, the third goes on");
        ListResult atFirstHandOver = s3.getList("/configmaps",
                new ListOptions(Long.toString(endedAt), ResourceVersionMatch.EXACT, null, true, 0, null, false));
        assertEquals(List.of("a", "b"), names(atFirstHandOver.items()), "reads at a revision of the first version");
    }

    /** What an earlier version of the bundle hands over (live keys only) is still taken over, without history. */
    @Test
    void theLiveKeysAnEarlierVersionHandsOverAreTakenOver() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            byte[] data = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\"}}"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeInt(0x4b4d5301);
            out.writeLong(9);
            out.writeBoolean(true);
            out.writeUTF("/configmaps/default/a");
            out.writeLong(7);
            out.writeInt(data.length);
            out.write(data);
            out.writeBoolean(false);
        }
        MvccStore store = new MvccStore(100);
        assertEquals(1, store.readSnapshot(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))));
        assertEquals(9, store.currentRevision());
        assertEquals(9, store.compactedRevision());
        assertEquals(7, store.latest("/configmaps/default/a").modRevision());
    }

    /** What was compacted stays compacted and nothing more is: 410 at the same revisions before and after. */
    @Test
    void aHandOverKeepsTheCompactedRevision(@TempDir Path dataArea) throws Exception {
        Path handover = dataArea.resolve("handover.snapshot");
        MemoryStorageBackend old = handingOver(5, handover);
        StorageInterface s = old.forResource(CONFIGMAPS);
        s.create("/configmaps/default/a", object("a", 0));
        for (int i = 1; i <= 10; i++) {
            update(s, "a", i);
        }
        long oldest = s.currentResourceVersion() - 5;
        StatusException before = assertThrows(StatusException.class, () -> watch(s, oldest - 1));
        old.deactivate();

        backend = handingOver(5, handover);
        StorageInterface next = backend.forResource(CONFIGMAPS);
        StatusException after = assertThrows(StatusException.class, () -> watch(next, oldest - 1));
        assertEquals(410, after.code());
        assertEquals(before.getMessage(), after.getMessage());
        List<String> replayed = new ArrayList<>();
        take(watch(next, oldest), 5, replayed, oldest);
        assertEquals(List.of("MODIFIED a 6", "MODIFIED a 7", "MODIFIED a 8", "MODIFIED a 9", "MODIFIED a 10"), replayed);
        update(next, "a", 11);
        assertEquals(410, assertThrows(StatusException.class, () -> watch(next, oldest)).code(),
                "the window moves on as before");
    }

    /** A next version with a smaller history keeps only as much of the window as it holds. */
    @Test
    void aSmallerHistoryKeepsTheNewestPartOfTheWindowHandedOver(@TempDir Path dataArea) throws Exception {
        Path handover = dataArea.resolve("handover.snapshot");
        MemoryStorageBackend old = handingOver(100, handover);
        StorageInterface s = old.forResource(CONFIGMAPS);
        long created = rv(s.create("/configmaps/default/a", object("a", 0)));
        for (int i = 1; i <= 10; i++) {
            update(s, "a", i);
        }
        old.deactivate();

        backend = handingOver(3, handover);
        StorageInterface next = backend.forResource(CONFIGMAPS);
        long current = next.currentResourceVersion();
        assertEquals(created + 10, current);
        assertEquals(410, assertThrows(StatusException.class, () -> watch(next, current - 4)).code());
        List<String> replayed = new ArrayList<>();
        take(watch(next, current - 3), 3, replayed, current - 3);
        assertEquals(List.of("MODIFIED a 8", "MODIFIED a 9", "MODIFIED a 10"), replayed);
    }

    /**
     * A watch asking for progress notifications ends, at a hand-over, with a BOOKMARK at the revision
     * handed over, even when the last writes were to other resources: from there it watches the next
     * version.
     */
    @Test
    void watchesEndWithTheRevisionHandedOverSoTheyCanGoOnFromIt(@TempDir Path dataArea) throws Exception {
        Path handover = dataArea.resolve("handover.snapshot");
        MemoryStorageBackend old = handingOver(100, handover);
        StorageInterface s = old.forResource(CONFIGMAPS);
        long created = rv(s.create("/configmaps/default/a", object("a", 0)));
        Watch w = s.watch("/configmaps", new ListOptions(Long.toString(created), null, SelectionPredicate.EVERYTHING,
                true, 0, null, true));
        StorageInterface secrets = old.forResource(new StorageConfig(GroupResource.of("", "secrets"), "/secrets"));
        secrets.create("/secrets/default/s", object("s", 0));
        long revision = s.currentResourceVersion();
        assertTrue(revision > created);
        old.deactivate();
        assertEquals(503, assertThrows(StatusException.class, () -> s.create("/configmaps/default/late", object("late", 0)))
                .code(), "nothing is acknowledged after the hand-over, which would not carry it");
        assertEquals(503, assertThrows(StatusException.class, () -> watch(s, revision)).code(),
                "no watch starts that nothing would end");

        WatchEvent last = next(w);
        assertEquals(WatchEvent.Type.BOOKMARK, last.type());
        assertEquals(revision, rv(last.object()));
        assertNull(w.next(Duration.ofSeconds(1)));
        assertTrue(w.done());

        backend = handingOver(100, handover);
        StorageInterface next = backend.forResource(CONFIGMAPS);
        Watch resumed = watch(next, revision);
        ObjectNode updated = update(next, "a", 1);
        WatchEvent e = next(resumed);
        assertEquals(WatchEvent.Type.MODIFIED, e.type());
        assertEquals(rv(updated), rv(e.object()));
        resumed.close();
    }

    /** A backend keeping {@code history} revisions that hands its objects over through {@code handover}. */
    private static MemoryStorageBackend handingOver(int history, Path handover) {
        return new MemoryStorageBackend(history, 100, Duration.ofSeconds(10), handover);
    }

    /** Takes {@code n} events (bookmarks skipped) as "TYPE name n", checking each revision follows the last; returns the last. */
    private static long take(Watch w, int n, List<String> into, long after) throws InterruptedException {
        long last = after;
        while (into.size() < n) {
            WatchEvent e = next(w);
            if (e.type() != WatchEvent.Type.BOOKMARK) {
                assertTrue(rv(e.object()) > last, "in order: " + rv(e.object()) + " after " + last);
                last = rv(e.object());
                into.add(describe(e));
            }
        }
        assertNull(w.next(Duration.ofMillis(200)), "nothing more");
        w.close();
        return last;
    }

    /** Takes every event until the watch ends; returns the revision of its last event or bookmark. */
    private static long drain(Watch w, List<String> into) throws InterruptedException {
        long last = 0;
        for (WatchEvent e = w.next(Duration.ofSeconds(5)); e != null; e = w.next(Duration.ofSeconds(5))) {
            last = rv(e.object());
            if (e.type() != WatchEvent.Type.BOOKMARK) {
                into.add(describe(e));
            }
        }
        assertTrue(w.done());
        return last;
    }

    private static String describe(WatchEvent e) {
        return e.type() + " " + e.object().path("metadata").path("name").asText() + " "
                + e.object().path("data").path("n").asInt();
    }

    private static List<String> names(List<ObjectNode> items) {
        return items.stream().map(o -> o.path("metadata").path("name").asText()).toList();
    }

    private static Watch watch(StorageInterface s, long from) {
        return s.watch("/configmaps", new ListOptions(Long.toString(from), null, null, true, 0, null, false));
    }

    private static WatchEvent next(Watch w) throws InterruptedException {
        WatchEvent e = w.next(Duration.ofSeconds(5));
        assertNotNull(e, "an event");
        return e;
    }

    private static ObjectNode update(StorageInterface s, String name, int n) {
        return s.guaranteedUpdate("/configmaps/default/" + name, false, Preconditions.NONE, (cur, rev) -> {
            ((ObjectNode) cur.get("data")).put("n", n);
            return cur;
        });
    }

    private static ObjectNode object(String name, int n) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        obj.putObject("metadata").put("name", name).put("namespace", "default");
        obj.putObject("data").put("n", n);
        return obj;
    }

    private static long rv(ObjectNode obj) {
        return Long.parseLong(obj.path("metadata").path("resourceVersion").asText());
    }

    private static MemoryStorageConfig config(int history, int queue, long intervalMs) {
        return new MemoryStorageConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return MemoryStorageConfig.class;
            }

            @Override
            public int event$_$history$_$size() {
                return history;
            }

            @Override
            public int watch$_$queue$_$size() {
                return queue;
            }

            @Override
            public long progress$_$notify$_$interval$_$ms() {
                return intervalMs;
            }
        };
    }
}
