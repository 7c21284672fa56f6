package io.kubelix.storage.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.api.storage.WatchEvent.Type;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** watch: initial state, resuming from a revision, directories, predicates, expiry, close, bookmarks. */
public abstract class WatchConformance extends ListConformance {

    private static final SelectionPredicate ALL = SelectionPredicate.EVERYTHING;

    @Test
    void watchFromZeroSendsCurrentStateThenChanges() throws Exception {
        watchFromCurrentState("0");
    }

    @Test
    void watchFromEmptySendsCurrentStateThenChanges() throws Exception {
        watchFromCurrentState("");
    }

    private void watchFromCurrentState(String rv) throws Exception {
        ObjectNode a = create("default", "a", "blue");
        ObjectNode b = create("default", "b", "blue");
        ObjectNode gone = create("default", "gone", "blue");
        storage.delete(key("default", "gone"), Preconditions.NONE, ValidateObjectFunction.NONE);
        create("default2", "x", "blue");
        Watch w = watch("/configmaps/default", true, rv, ALL);
        Set<String> initial = new HashSet<>();
        for (int i = 0; i < 2; i++) {
            WatchEvent e = next(w);
            assertEquals(Type.ADDED, e.type());
            initial.add(name(e.object()));
            assertEquals(name(e.object()).equals("a") ? rv(a) : rv(b), rv(e.object()));
        }
        assertEquals(Set.of("a", "b"), initial);
        ObjectNode c = create("default", "c", "blue");
        expect(w, Type.ADDED, "c", rv(c));
        ObjectNode a2 = storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                (cur, r) -> withColor(cur, "red"));
        WatchEvent modified = expect(w, Type.MODIFIED, "a", rv(a2));
        assertEquals("red", color(modified.object()));
        assertNotNull(gone);
        expectNothing(w);
    }

    @Test
    void watchFromRevisionDeliversEveryLaterEventInOrder() throws Exception {
        ObjectNode a = create("default", "a", "blue");
        long from = rv(a);
        long r1 = rv(storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                (cur, r) -> withColor(cur, "red")));
        long r2 = rv(create("default", "b", "blue"));
        ObjectNode deleted = storage.delete(key("default", "a"), Preconditions.NONE, ValidateObjectFunction.NONE);
        Watch w = watch("/configmaps/default", true, Long.toString(from), ALL);
        assertEquals("red", color(expect(w, Type.MODIFIED, "a", r1).object()));
        expect(w, Type.ADDED, "b", r2);
        WatchEvent del = expect(w, Type.DELETED, "a", rv(deleted));
        assertEquals("red", color(del.object()), "DELETED carries the object as it was deleted");
        long r4 = rv(create("default", "a", "green"));
        expect(w, Type.ADDED, "a", r4);
        long r5 = rv(storage.delete(key("default", "b"), Preconditions.NONE, ValidateObjectFunction.NONE));
        expect(w, Type.DELETED, "b", r5);
        expectNothing(w);
    }

    @Test
    void watchFromCurrentRevisionSeesOnlyNewEvents() throws Exception {
        create("default", "a", "blue");
        Watch w = watch("/configmaps", true, Long.toString(storage.currentResourceVersion()), ALL);
        expectNothing(w);
        long r = rv(create("default", "b", "blue"));
        expect(w, Type.ADDED, "b", r);
    }

    @Test
    void manyEventsArriveOnceAndInOrder() throws Exception {
        long from = storage.currentResourceVersion();
        Watch w = watch("/configmaps", true, Long.toString(from), ALL);
        create("default", "n", "0");
        for (int i = 1; i <= 200; i++) {
            String next = Integer.toString(i);
            storage.guaranteedUpdate(key("default", "n"), false, Preconditions.NONE, (cur, r) -> withColor(cur, next));
        }
        long last = from;
        for (int i = 0; i <= 200; i++) {
            WatchEvent e = next(w);
            assertEquals(i == 0 ? Type.ADDED : Type.MODIFIED, e.type());
            assertEquals(Integer.toString(i), color(e.object()));
            assertTrue(rv(e.object()) > last, "revisions increase");
            last = rv(e.object());
        }
        expectNothing(w);
    }

    @Test
    void watchSeesOnlyItsDirectory() throws Exception {
        Watch w = watch("/configmaps/default", true, "0", ALL);
        create("default2", "x", "blue");
        create("other", "y", "blue");
        // A cluster-level key that shares the directory's text but not the directory.
        storage.create("/configmaps/defaultx", configMap("", "defaultx", "blue"));
        long r = rv(create("default", "z", "blue"));
        expect(w, Type.ADDED, "z", r);
        expectNothing(w);
    }

    @Test
    void nonRecursiveWatchSeesOneKey() throws Exception {
        create("default", "a", "blue");
        Watch w = watch(key("default", "a"), false, "0", ALL);
        expect(w, Type.ADDED, "a", 0);
        create("default", "ab", "blue");
        long r = rv(storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                (cur, rv) -> withColor(cur, "red")));
        expect(w, Type.MODIFIED, "a", r);
        expectNothing(w);
    }

    @Test
    void predicateTurnsTransitionsIntoAddedAndDeleted() throws Exception {
        create("default", "x", "blue");
        Watch w = watch("/configmaps/default", true, "0", colorIs("blue"));
        expect(w, Type.ADDED, "x", 0);
        create("default", "y", "red");
        long toRed = rv(update("x", "red"));
        expect(w, Type.DELETED, "x", toRed);
        long toBlue = rv(update("x", "blue"));
        expect(w, Type.ADDED, "x", toBlue);
        long stillBlue = rv(storage.guaranteedUpdate(key("default", "x"), false, Preconditions.NONE, (cur, r) -> {
            meta(cur).putObject("labels").put("touched", "yes");
            return cur;
        }));
        expect(w, Type.MODIFIED, "x", stillBlue);
        update("y", "green");
        long deleted = rv(storage.delete(key("default", "x"), Preconditions.NONE, ValidateObjectFunction.NONE));
        expect(w, Type.DELETED, "x", deleted);
        storage.delete(key("default", "y"), Preconditions.NONE, ValidateObjectFunction.NONE);
        expectNothing(w);
    }

    @Test
    void watchFromCompactedRevisionIsExpired() throws Exception {
        long old = rv(create("default", "a", "blue"));
        create("default", "b", "blue");
        long now = rv(create("default", "c", "blue"));
        compact(backend, now);
        StatusException error;
        try {
            Watch w = watch("/configmaps", true, Long.toString(old), ALL);
            WatchEvent e = next(w);
            assertEquals(Type.ERROR, e.type(), "a watch from a compacted revision fails");
            assertNull(e.object());
            error = e.error();
            assertNotNull(error);
            assertEnds(w);
        } catch (StatusException thrown) {
            error = thrown;
        }
        assertEquals(410, error.code());
        assertEquals(StatusReason.EXPIRED, error.reason());
        Watch ok = watch("/configmaps", true, Long.toString(now), ALL);
        long r = rv(create("default", "d", "blue"));
        expect(ok, Type.ADDED, "d", r);
    }

    @Test
    void closeEndsTheStream() throws Exception {
        create("default", "a", "blue");
        Watch w = watch("/configmaps", true, "0", ALL);
        expect(w, Type.ADDED, "a", 0);
        w.close();
        w.close();
        create("default", "b", "blue");
        assertEnds(w);
    }

    @Test
    void closeWakesABlockedReader() throws Exception {
        Watch w = watch("/configmaps", true, "0", ALL);
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            w.close();
        });
        long start = System.nanoTime();
        closer.start();
        assertNull(w.next(Duration.ofSeconds(30)));
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(10)) < 0,
                "next returns when the watch is closed");
        closer.join();
        assertTrue(w.done());
    }

    @Test
    void progressNotifySendsBookmarks() throws Exception {
        create("default", "a", "blue");
        long current = storage.currentResourceVersion();
        Watch w = storage.watch("/configmaps", new ListOptions(Long.toString(current), ResourceVersionMatch.UNSET,
                ALL, true, 0, null, true));
        try {
            long deadline = System.nanoTime() + progressNotifyTimeout().toNanos();
            WatchEvent e = null;
            while (e == null && System.nanoTime() < deadline) {
                e = w.next(Duration.ofNanos(deadline - System.nanoTime()));
            }
            assertNotNull(e, "a BOOKMARK within " + progressNotifyTimeout());
            assertEquals(Type.BOOKMARK, e.type());
            assertTrue(rv(e.object()) >= current);
            assertEquals(Set.of("metadata"), fieldNames(e.object()), "a bookmark carries only metadata");
            assertEquals(Set.of("resourceVersion"), fieldNames(meta(e.object())));
        } finally {
            w.close();
        }
    }

    private ObjectNode update(String name, String color) {
        return storage.guaranteedUpdate(key("default", name), false, Preconditions.NONE, (cur, r) -> withColor(cur, color));
    }

    private static Set<String> fieldNames(ObjectNode obj) {
        Set<String> names = new HashSet<>();
        obj.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
