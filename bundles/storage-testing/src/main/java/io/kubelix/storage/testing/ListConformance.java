package io.kubelix.storage.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.ValidateObjectFunction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** getList: directories, order, predicates, resourceVersion semantics, paging. */
public abstract class ListConformance extends UpdateConformance {

    private static final SelectionPredicate ALL = SelectionPredicate.EVERYTHING;

    @Test
    void listIsRecursiveOverTheDirectoryAndOrderedByKey() {
        create("default", "b", "blue");
        create("kube-system", "a", "blue");
        create("default", "a", "red");
        create("default2", "x", "blue");
        ListResult ns = storage.getList("/configmaps/default", ListOptions.recursiveAll());
        assertEquals(List.of("a", "b"), names(ns), "only that namespace; default2 is another directory");
        ListResult all = storage.getList("/configmaps", ListOptions.recursiveAll());
        assertEquals(List.of("a", "b", "x", "a"), names(all));
        assertEquals(List.of("default", "default", "default2", "kube-system"),
                all.items().stream().map(o -> o.path("metadata").path("namespace").asText()).toList());
        assertEquals(storage.currentResourceVersion(), all.resourceVersion(), "list RV is the current revision");
        assertNull(all.continueToken());
        assertEquals(List.of(), storage.getList("/configmaps/none", ListOptions.recursiveAll()).items());
    }

    @Test
    void listItemsCarryTheirResourceVersionAndAreCopies() {
        ObjectNode a = create("default", "a", "blue");
        ObjectNode b = create("default", "b", "blue");
        ListResult list = storage.getList("/configmaps/default", ListOptions.recursiveAll());
        assertEquals(List.of(a, b), list.items());
        withColor(list.items().get(0), "mutated");
        assertEquals("blue", color(storage.getList("/configmaps/default", ListOptions.recursiveAll()).items().get(0)));
    }

    @Test
    void nonRecursiveListReadsOneObject() {
        create("default", "a", "blue");
        create("default", "ab", "blue");
        ListOptions one = new ListOptions("", ResourceVersionMatch.UNSET, ALL, false, 0, null, false);
        assertEquals(List.of("a"), names(storage.getList(key("default", "a"), one)));
        assertEquals(List.of(), names(storage.getList(key("default", "zz"), one)));
    }

    @Test
    void listFiltersByPredicate() {
        create("default", "a", "blue");
        create("default", "b", "red");
        create("default", "c", "blue");
        ListResult blue = storage.getList("/configmaps", listOpts("", ResourceVersionMatch.UNSET, colorIs("blue"), 0, null));
        assertEquals(List.of("a", "c"), names(blue));
        assertEquals(storage.currentResourceVersion(), blue.resourceVersion());
    }

    @Test
    void listWithResourceVersion() {
        create("default", "a", "blue");
        long current = storage.currentResourceVersion();
        ListResult any = storage.getList("/configmaps", listOpts("0", ResourceVersionMatch.UNSET, ALL, 0, null));
        assertEquals(List.of("a"), names(any));
        ListResult notOlder = storage.getList("/configmaps",
                listOpts(Long.toString(current), ResourceVersionMatch.NOT_OLDER_THAN, ALL, 0, null));
        assertEquals(List.of("a"), names(notOlder));
        assertTrue(notOlder.resourceVersion() >= current);
        assertStatus(504, () -> storage.getList("/configmaps",
                listOpts(Long.toString(current + 1000), ResourceVersionMatch.UNSET, ALL, 0, null)));
        assertStatus(504, () -> storage.getList("/configmaps",
                listOpts(Long.toString(current + 1000), ResourceVersionMatch.NOT_OLDER_THAN, ALL, 0, null)));
        assertStatus(400, () -> storage.getList("/configmaps", listOpts("x1", ResourceVersionMatch.UNSET, ALL, 0, null)));
    }

    @Test
    void exactListReadsHistory() {
        long r1 = rv(create("default", "a", "blue"));
        long r2 = rv(create("default", "b", "blue"));
        long r3 = rv(storage.guaranteedUpdate(key("default", "a"), false, Preconditions.NONE,
                (cur, rev) -> withColor(cur, "red")));
        long r4 = rv(storage.delete(key("default", "b"), Preconditions.NONE, ValidateObjectFunction.NONE));
        ListResult at1 = exact(r1, ALL);
        assertEquals(List.of("a"), names(at1));
        assertEquals(r1, at1.resourceVersion());
        assertEquals(List.of("a", "b"), names(exact(r2, ALL)));
        assertEquals("blue", color(exact(r2, ALL).items().get(0)));
        assertEquals(r1, rv(exact(r2, ALL).items().get(0)), "items carry the revision of their last write");
        assertEquals("red", color(exact(r3, ALL).items().get(0)));
        assertEquals(List.of("a"), names(exact(r4, ALL)));
        assertEquals(List.of("a", "b"), names(exact(r2, colorIs("blue"))));
        assertStatus(504, () -> exact(r4 + 1000, ALL));
    }

    @Test
    void exactListOfCompactedRevisionIsExpired() {
        long r1 = rv(create("default", "a", "blue"));
        create("default", "b", "blue");
        long r3 = rv(create("default", "c", "blue"));
        compact(backend, r3);
        var e = assertStatus(410, () -> exact(r1, ALL));
        assertEquals(StatusReason.EXPIRED, e.reason());
        assertEquals(List.of("a", "b", "c"), names(exact(r3, ALL)), "the compacted revision itself is kept");
    }

    @Test
    void pagedListReadsTheRestFromTheSameRevision() {
        for (String n : List.of("a", "b", "c", "d", "e")) {
            create("default", n, "blue");
        }
        create("other", "z", "blue");
        ListResult p1 = storage.getList("/configmaps/default", listOpts("", ResourceVersionMatch.UNSET, ALL, 2, null));
        assertEquals(List.of("a", "b"), names(p1));
        assertNotNull(p1.continueToken());
        assertEquals(3L, p1.remainingItemCount());
        assertEquals(storage.currentResourceVersion(), p1.resourceVersion());

        create("default", "ba", "blue");
        storage.guaranteedUpdate(key("default", "c"), false, Preconditions.NONE, (cur, rev) -> withColor(cur, "red"));
        storage.delete(key("default", "d"), Preconditions.NONE, ValidateObjectFunction.NONE);

        ListResult p2 = storage.getList("/configmaps/default", listOpts("", ResourceVersionMatch.UNSET, ALL, 2, p1.continueToken()));
        assertEquals(List.of("c", "d"), names(p2), "the page reads the state of the first page's revision");
        assertEquals("blue", color(p2.items().get(0)));
        assertEquals(p1.resourceVersion(), p2.resourceVersion());
        assertEquals(1L, p2.remainingItemCount());
        assertNotNull(p2.continueToken());

        ListResult p3 = storage.getList("/configmaps/default", listOpts("", ResourceVersionMatch.UNSET, ALL, 2, p2.continueToken()));
        assertEquals(List.of("e"), names(p3));
        assertNull(p3.continueToken());
        assertTrue(p3.remainingItemCount() == null || p3.remainingItemCount() == 0);
        assertEquals(p1.resourceVersion(), p3.resourceVersion());

        ListResult fresh = storage.getList("/configmaps/default", ListOptions.recursiveAll());
        assertEquals(List.of("a", "b", "ba", "c", "e"), names(fresh));
    }

    @Test
    void pagedListWithPredicate() {
        String[][] objs = {{"a", "blue"}, {"b", "red"}, {"c", "blue"}, {"d", "red"}, {"e", "blue"}, {"f", "red"}};
        for (String[] o : objs) {
            create("default", o[0], o[1]);
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            ListResult page = storage.getList("/configmaps/default",
                    listOpts("", ResourceVersionMatch.UNSET, colorIs("blue"), 2, token));
            assertTrue(page.items().size() <= 2, "a page holds at most limit items");
            assertTrue(page.continueToken() == null || page.items().size() == 2, "a non-final page is full");
            seen.addAll(names(page));
            token = page.continueToken();
            assertTrue(++pages <= 3, "paging ends");
        } while (token != null);
        assertEquals(List.of("a", "c", "e"), seen);
    }

    @Test
    void continueTokenOfCompactedRevisionIsExpiredAndOffersTheRestAtTheCurrentRevision() {
        for (String n : List.of("a", "b", "c")) {
            create("default", n, "blue");
        }
        ListResult p1 = storage.getList("/configmaps/default", listOpts("", ResourceVersionMatch.UNSET, ALL, 1, null));
        assertEquals(List.of("a"), names(p1));
        create("default", "d", "blue");
        long now = rv(create("default", "e", "blue"));
        compact(backend, now);
        var e = assertStatus(410, () -> storage.getList("/configmaps/default",
                listOpts("", ResourceVersionMatch.UNSET, ALL, 1, p1.continueToken())));
        assertEquals(StatusReason.EXPIRED, e.reason());
        assertNotNull(e.continueToken(), "the 410 offers a token for the rest of the list");

        // The offered token lists the rest, including what was created after the first page, at the current revision.
        List<String> rest = new ArrayList<>();
        String token = e.continueToken();
        long revision = 0;
        do {
            ListResult page = storage.getList("/configmaps/default", listOpts("", ResourceVersionMatch.UNSET, ALL, 2, token));
            assertTrue(revision == 0 || page.resourceVersion() == revision, "the pages after it share one revision");
            revision = page.resourceVersion();
            rest.addAll(names(page));
            token = page.continueToken();
        } while (token != null);
        assertEquals(List.of("b", "c", "d", "e"), rest);
        assertTrue(revision >= now, "read at the current revision");
    }

    @Test
    void malformedContinueTokenIsBadRequest() {
        create("default", "a", "blue");
        assertStatus(400, () -> storage.getList("/configmaps/default",
                listOpts("", ResourceVersionMatch.UNSET, ALL, 1, "not a token")));
    }

    private ListResult exact(long rv, SelectionPredicate predicate) {
        return storage.getList("/configmaps", listOpts(Long.toString(rv), ResourceVersionMatch.EXACT, predicate, 0, null));
    }
}
