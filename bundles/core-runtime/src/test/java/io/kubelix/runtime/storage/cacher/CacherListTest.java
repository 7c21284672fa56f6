package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lists from the cache: paged, at pinned revisions (continue, Exact), and when the cache no longer holds one. */
class CacherListTest {
    private static final GroupResource CONFIGMAPS = GroupResource.of("", "configmaps");

    private MemoryStorageBackend memory;
    private StorageInterface backend;
    private Cacher cacher;

    /** A cache of {@code window} events over a backend that keeps {@code history} revisions. */
    private void start(int window, int history) throws InterruptedException {
        memory = MemoryBackends.newBackend(history);
        backend = memory.forResource(new StorageConfig(CONFIGMAPS, "/configmaps"));
        cacher = MemoryBackends.readyCacher(backend, "/configmaps",
                new CacherOptions(window, 100, Duration.ofMillis(20), Duration.ofSeconds(60), Duration.ofSeconds(3)));
    }

    @AfterEach
    void tearDown() {
        if (cacher != null) {
            cacher.stop();
        }
        MemoryBackends.close(memory);
    }

    @Test
    void pagesOfAListReadOneRevisionFromTheCache() throws Exception {
        start(1000, 1000);
        putAll("a", "b", "c", "d", "e");
        ListResult first = cacher.getList("/configmaps/default", paged("", 2, null, SelectionPredicate.EVERYTHING));
        assertEquals(List.of("a", "b"), names(first));
        assertEquals(3L, first.remainingItemCount());
        // Changes after the first page.
        put("default", "b", "2");
        put("default", "c", "2");
        cacher.delete("/configmaps/default/d", Preconditions.NONE, o -> { });
        put("default", "bb", "1");
        put("default", "f", "1");
        long fromStorage = cacher.stats().readsFromStorage();

        ListResult second = cacher.getList("/configmaps/default", paged("", 2, first.continueToken(), SelectionPredicate.EVERYTHING));
        ListResult third = cacher.getList("/configmaps/default", paged("", 2, second.continueToken(), SelectionPredicate.EVERYTHING));

        assertEquals(List.of("c", "d"), names(second));
        assertEquals(List.of("1", "1"), values(second), "as they were at the first page's revision");
        assertEquals(1L, second.remainingItemCount());
        assertEquals(List.of("e"), names(third));
        assertNull(third.continueToken());
        assertEquals(first.resourceVersion(), second.resourceVersion());
        assertEquals(first.resourceVersion(), third.resourceVersion());
        assertEquals(fromStorage, cacher.stats().readsFromStorage(), "served by the cache");
    }

    @Test
    void aContinueTheCacheNoLongerHoldsGoesToTheBackend() throws Exception {
        start(2, 1000);
        putAll("a", "b", "c");
        ListResult first = cacher.getList("/configmaps/default", paged("", 1, null, SelectionPredicate.EVERYTHING));
        for (int i = 0; i < 3; i++) {
            put("default", "b", "v" + i);
        }
        long fromStorage = cacher.stats().readsFromStorage();

        ListResult second = cacher.getList("/configmaps/default", paged("", 1, first.continueToken(), SelectionPredicate.EVERYTHING));

        assertEquals(List.of("b"), names(second));
        assertEquals(List.of("1"), values(second), "the backend still reads the old revision");
        assertEquals(fromStorage + 1, cacher.stats().readsFromStorage());
    }

    /** Whether the cache still holds the revision (a window of 1000) or not (2), the backend's compaction decides. */
    @ParameterizedTest(name = "cache window {0}")
    @ValueSource(ints = {1000, 2})
    void aContinueTheBackendCompactedIsExpired(int window) throws Exception {
        start(window, 2);
        putAll("a", "b", "c");
        ListResult first = cacher.getList("/configmaps/default", paged("", 1, null, SelectionPredicate.EVERYTHING));
        for (int i = 0; i < 4; i++) {
            put("default", "b", "v" + i);
        }

        StatusException e = assertThrows(StatusException.class, () -> cacher.getList("/configmaps/default",
                paged("", 1, first.continueToken(), SelectionPredicate.EVERYTHING)));

        assertEquals(410, e.code(), "as the backend answers it");
        assertEquals("Expired", e.reason().wireName());
    }

    @Test
    void anExactListReadsAnOlderRevisionFromTheCache() throws Exception {
        start(1000, 1000);
        long before = put("default", "a", "1");
        put("default", "a", "2");
        put("default", "b", "1");
        put("other", "c", "1");
        long fromStorage = cacher.stats().readsFromStorage();

        ListResult exact = cacher.getList("/configmaps", new ListOptions(Long.toString(before),
                ResourceVersionMatch.EXACT, null, true, 0, null, false));
        ListResult legacyExact = cacher.getList("/configmaps", paged(Long.toString(before), 10, null,
                SelectionPredicate.EVERYTHING));

        assertEquals(List.of("a"), names(exact));
        assertEquals(List.of("1"), values(exact));
        assertEquals(before, exact.resourceVersion());
        assertEquals(names(exact), names(legacyExact));
        assertEquals(fromStorage, cacher.stats().readsFromStorage(), "served by the cache");
    }

    @Test
    void aListAtZeroIsWholeWhateverTheLimitAsKubeAnswersIt() throws Exception {
        start(1000, 1000);
        putAll("a", "b", "c");

        ListResult all = cacher.getList("/configmaps/default", paged("0", 1, null, SelectionPredicate.EVERYTHING));

        assertEquals(List.of("a", "b", "c"), names(all));
        assertNull(all.continueToken());
    }

    @Test
    void pagesWithASelectorCountNoRemainingItems() throws Exception {
        start(1000, 1000);
        for (String n : List.of("a", "b", "c", "d")) {
            put("default", n, n.equals("b") ? "skip" : "1");
        }
        SelectionPredicate ones = new SelectionPredicate() {
            @Override
            public boolean matches(ObjectNode obj) {
                return obj.path("data").path("k").asText().equals("1");
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }
        };
        List<String> seen = new ArrayList<>();
        String token = null;
        do {
            ListResult page = cacher.getList("/configmaps", paged("", 2, token, ones));
            assertNull(page.remainingItemCount());
            seen.addAll(names(page));
            token = page.continueToken();
        } while (token != null);

        assertEquals(List.of("a", "c", "d"), seen);
    }

    @Test
    void aBadContinueTokenIsBadRequest() throws Exception {
        start(1000, 1000);

        StatusException e = assertThrows(StatusException.class, () -> cacher.getList("/configmaps",
                paged("", 1, "not-a-token", SelectionPredicate.EVERYTHING)));

        assertEquals(400, e.code());
    }

    private void putAll(String... names) {
        for (String n : names) {
            put("default", n, "1");
        }
    }

    private long put(String ns, String name, String value) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", "ConfigMap");
        o.putObject("metadata").put("name", name).put("namespace", ns);
        o.putObject("data").put("k", value);
        ObjectNode stored = cacher.guaranteedUpdate("/configmaps/" + ns + "/" + name, true, Preconditions.NONE,
                (cur, meta) -> o);
        long rv = Long.parseLong(stored.path("metadata").path("resourceVersion").asText());
        assertNotNull(cacher.getList("/configmaps", new ListOptions(Long.toString(rv), ResourceVersionMatch.NOT_OLDER_THAN,
                null, true, 0, null, false)), "the cache caught up");
        return rv;
    }

    private static ListOptions paged(String rv, long limit, String token, SelectionPredicate p) {
        return new ListOptions(rv, ResourceVersionMatch.UNSET, p, true, limit, token, false);
    }

    private static List<String> names(ListResult r) {
        return r.items().stream().map(o -> o.path("metadata").path("name").asText()).toList();
    }

    private static List<String> values(ListResult r) {
        return r.items().stream().map(o -> o.path("data").path("k").asText()).toList();
    }
}
