package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the watch cache adds to storage: a bounded window, slow-watcher isolation, routing, WatchList, shared encodings. */
class CacherTest {
    private static final GroupResource CONFIGMAPS = GroupResource.of("", "configmaps");
    private static final Duration WAIT = Duration.ofSeconds(5);

    private MemoryStorageBackend memory;
    private Cacher cacher;

    @BeforeEach
    void setUp() {
        memory = MemoryBackends.newBackend();
    }

    @AfterEach
    void tearDown() {
        if (cacher != null) {
            cacher.stop();
        }
        MemoryBackends.close(memory);
    }

    private Cacher cacher(int window, int buffer) throws InterruptedException {
        return cacher(window, buffer, Duration.ofMillis(200));
    }

    private Cacher cacher(int window, int buffer, Duration bookmarkInterval) throws InterruptedException {
        cacher = new Cacher(memory.forResource(new StorageConfig(CONFIGMAPS, "/configmaps")), CONFIGMAPS, "/configmaps",
                new CacherOptions(window, buffer, Duration.ofMillis(20), bookmarkInterval, Duration.ofSeconds(3)));
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!cacher.ready() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(cacher.ready(), "the cache lists and starts watching");
        return cacher;
    }

    private long create(String ns, String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", "ConfigMap");
        o.putObject("metadata").put("name", name).put("namespace", ns);
        o.putObject("data").put("k", "v");
        return Long.parseLong(cacher.create("/configmaps/" + ns + "/" + name, o)
                .path("metadata").path("resourceVersion").asText());
    }

    private static ListOptions from(String rv) {
        return new ListOptions(rv, ResourceVersionMatch.UNSET, null, true, 0, null, false);
    }

    @Test
    void aWatchFromARevisionThatLeftTheWindowIsExpired() throws Exception {
        cacher(3, 100);
        long first = create("default", "a");
        for (int i = 0; i < 5; i++) {
            create("default", "b" + i);
        }
        long last = create("default", "c");
        // Inside the window (the last three events): served by the cache.
        try (Watch w = cacher.watch("/configmaps", from(Long.toString(last - 3)))) {
            assertEquals(WatchEvent.Type.ADDED, w.next(WAIT).type());
        }
        StatusException e = assertThrows(StatusException.class, () -> cacher.watch("/configmaps", from(Long.toString(first))));
        assertEquals(410, e.code());
        assertEquals("Expired", e.reason().wireName());
    }

    @Test
    void aWatchFromBeforeTheCachesListIsServedByTheBackend() throws Exception {
        io.kubelix.api.storage.StorageInterface raw = memory.forResource(new StorageConfig(CONFIGMAPS, "/configmaps"));
        long first = rv(raw.create("/configmaps/default/a", object("default", "a")));
        long second = rv(raw.create("/configmaps/default/b", object("default", "b")));
        long third = rv(raw.create("/configmaps/default/c", object("default", "c")));
        cacher(3, 100);
        // The cache listed after these writes; the backend still has them, in order.
        try (Watch w = cacher.watch("/configmaps", from(Long.toString(first)))) {
            assertEquals(second, rv(w.next(WAIT).object()));
            assertEquals(third, rv(w.next(WAIT).object()));
        }
    }

    private static long rv(ObjectNode o) {
        return Long.parseLong(o.path("metadata").path("resourceVersion").asText());
    }

    private static ObjectNode object(String ns, String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", "ConfigMap");
        o.putObject("metadata").put("name", name).put("namespace", ns);
        return o;
    }

    @Test
    void aWatchFromARevisionNobodyKeepsIsExpired() throws Exception {
        MemoryBackends.close(memory);
        memory = MemoryBackends.newBackend(4);
        cacher(3, 100);
        long first = create("default", "a");
        long last = first;
        for (int i = 0; i < 8; i++) {
            last = create("default", "b" + i);
        }
        // Once the cache has seen every write, "a" is out of its three-event window (and the backend's four).
        cacher.getList("/configmaps", new ListOptions(Long.toString(last), ResourceVersionMatch.NOT_OLDER_THAN,
                io.kubelix.api.storage.SelectionPredicate.EVERYTHING, true, 0, null, false));
        StatusException e;
        try {
            Watch w = cacher.watch("/configmaps", from(Long.toString(first)));
            WatchEvent ev = w.next(WAIT);
            assertEquals(WatchEvent.Type.ERROR, ev.type(), "the stream starts with the error");
            e = ev.error();
        } catch (StatusException thrown) {
            e = thrown;
        }
        assertEquals(410, e.code());
        assertEquals("Expired", e.reason().wireName());
    }

    /**
     * A slow watcher's offer waits out the grace budget outside the dispatch lock: meanwhile a new
     * watch starts at once, and a watcher closes at once.
     */
    @Test
    void aSlowWatcherWaitingOutItsBudgetBlocksNeitherNewWatchesNorClosingOnes() throws Exception {
        cacher = new Cacher(memory.forResource(new StorageConfig(CONFIGMAPS, "/configmaps")), CONFIGMAPS, "/configmaps",
                new CacherOptions(1000, 2, Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(3)));
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!cacher.ready() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Watch slow = cacher.watch("/configmaps", from(Long.toString(create("default", "start"))));
        Watch other = cacher.watch("/configmaps", from("0"));
        for (int i = 0; i < 3; i++) {
            create("default", "n" + i); // the third finds the slow watcher's buffer of 2 full: dispatch waits 30 s
        }
        Thread.sleep(200);
        ExecutorService client = Executors.newSingleThreadExecutor();
        try {
            Future<Watch> started = client.submit(() -> cacher.watch("/configmaps", from("0")));
            Watch late = started.get(10, TimeUnit.SECONDS);
            assertNotNull(late.next(WAIT), "the new watch has its initial events");
            late.close();
            client.submit(other::close).get(10, TimeUnit.SECONDS);
        } finally {
            client.shutdownNow();
            slow.close();
        }
    }

    /**
     * RequestWatchProgress on a cache watcher: a BOOKMARK at the backend's current revision, which
     * writes to other resources moved beyond this resource's last event.
     */
    @Test
    void aWatcherAskingForProgressGetsABookmarkAtTheBackendsRevision() throws Exception {
        cacher(1000, 100, Duration.ofMinutes(10));
        long last = create("default", "a");
        Watch w = cacher.watch("/configmaps", new ListOptions(Long.toString(last), ResourceVersionMatch.UNSET, null,
                true, 0, null, true));
        StorageInterface secrets = memory.forResource(new StorageConfig(GroupResource.of("", "secrets"), "/secrets"));
        ObjectNode secret = JsonNodeFactory.instance.objectNode();
        secret.putObject("metadata").put("name", "s").put("namespace", "default");
        long elsewhere = Long.parseLong(secrets.create("/secrets/default/s", secret)
                .path("metadata").path("resourceVersion").asText());
        assertTrue(elsewhere > last);

        w.requestProgress();
        WatchEvent e = w.next(WAIT);
        assertNotNull(e, "a bookmark answers the request");
        assertEquals(WatchEvent.Type.BOOKMARK, e.type());
        assertTrue(Long.parseLong(e.object().path("metadata").path("resourceVersion").asText()) >= elsewhere,
                e.object().toString());
        w.close();
    }

    @Test
    void aWatcherThatStopsReadingIsTerminatedWithoutDelayingOthers() throws Exception {
        cacher(1000, 5);
        Watch slow = cacher.watch("/configmaps", from(Long.toString(create("default", "start"))));
        Watch fast = cacher.watch("/configmaps", from(Long.toString(memory.forResource(
                new StorageConfig(CONFIGMAPS, "/configmaps")).currentResourceVersion())));
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            create("default", "n" + i);
            WatchEvent e = fast.next(WAIT);
            assertNotNull(e, "the fast watcher gets event " + i + " while the slow one is stuck");
            seen.add(e.object().path("metadata").path("name").asText());
        }
        assertEquals(50, seen.size());
        // The slow watcher got its buffer's worth, then its stream ended so its client re-watches.
        int delivered = 0;
        while (slow.next(Duration.ofMillis(100)) != null) {
            delivered++;
        }
        assertTrue(slow.done(), "a watcher that fell behind is ended");
        assertTrue(delivered <= 6, "no more than its buffer was kept for it: " + delivered);
        fast.close();
        CacherStats stats = cacher.stats();
        assertEquals(1, stats.slowWatchersTerminated());
        assertEquals(2, stats.watchersStarted());
        assertEquals(0, stats.watchers(), "both watchers are gone from the index");
        assertTrue(stats.events() >= 51, "every write was applied to the cache: " + stats.events());
    }

    @Test
    void eventsReachOnlyWatchersOfTheirNamespaceAndClusterWideOnes() throws Exception {
        cacher(1000, 100);
        long start = create("kube-system", "boot");
        Watch team = cacher.watch("/configmaps/team", from(Long.toString(start)));
        Watch all = cacher.watch("/configmaps", from(Long.toString(start)));
        create("other", "x");
        long rv = create("team", "y");
        WatchEvent e = team.next(WAIT);
        assertEquals("y", e.object().path("metadata").path("name").asText());
        assertEquals(rv, Long.parseLong(e.object().path("metadata").path("resourceVersion").asText()));
        assertNull(team.next(Duration.ofMillis(200)), "nothing from other namespaces");
        assertEquals("x", all.next(WAIT).object().path("metadata").path("name").asText());
        assertEquals("y", all.next(WAIT).object().path("metadata").path("name").asText());
        team.close();
        all.close();
    }

    @Test
    void watchListSendsTheStateThenTheInitialEventsEndBookmark() throws Exception {
        cacher(1000, 100);
        create("default", "a");
        long rv = create("default", "b");
        ListOptions watchList = new ListOptions("", ResourceVersionMatch.NOT_OLDER_THAN, null, true, 0, null, true, true);
        try (Watch w = cacher.watch("/configmaps/default", watchList)) {
            assertEquals(WatchEvent.Type.ADDED, w.next(WAIT).type());
            assertEquals(WatchEvent.Type.ADDED, w.next(WAIT).type());
            WatchEvent end = w.next(WAIT);
            assertEquals(WatchEvent.Type.BOOKMARK, end.type());
            assertEquals("true", end.object().path("metadata").path("annotations").path("k8s.io/initial-events-end").asText());
            assertTrue(Long.parseLong(end.object().path("metadata").path("resourceVersion").asText()) >= rv);
            long later = create("default", "c");
            WatchEvent live = w.next(WAIT);
            assertEquals(WatchEvent.Type.ADDED, live.type());
            assertEquals(later, Long.parseLong(live.object().path("metadata").path("resourceVersion").asText()));
        }
    }

    @Test
    void aWatchGetsABookmarkShortlyBeforeItsTimeout() throws Exception {
        cacher(1000, 100, Duration.ofMinutes(1));
        long rv = create("default", "a");
        ListOptions from = new ListOptions(Long.toString(rv), ResourceVersionMatch.UNSET, null, true, 0, null, true);
        Watch timed = cacher.watch("/configmaps", from.withTimeout(Duration.ofMillis(3500)));
        Watch untimed = cacher.watch("/configmaps", from);
        Watch tooShort = cacher.watch("/configmaps", from.withTimeout(Duration.ofSeconds(1)));
        Watch noBookmarks = cacher.watch("/configmaps", new ListOptions(Long.toString(rv), ResourceVersionMatch.UNSET,
                null, true, 0, null, false).withTimeout(Duration.ofMillis(3500)));

        WatchEvent e = timed.next(Duration.ofMillis(3500));

        assertNotNull(e, "a bookmark before the watch's 3.5 s are over");
        assertEquals(WatchEvent.Type.BOOKMARK, e.type());
        assertEquals(rv, rv(e.object()));
        assertNull(untimed.poll(), "without a timeout, only the minutely bookmark");
        assertNull(tooShort.poll(), "a watch ending within 2 s gets none, as kube's nextBookmarkTime says");
        assertNull(noBookmarks.poll(), "only for watches that allow bookmarks");
        for (Watch w : List.of(timed, untimed, tooShort, noBookmarks)) {
            w.close();
        }
    }

    @Test
    void watchersShareOneEncodingOfEachEvent() throws Exception {
        cacher(1000, 100);
        long start = create("default", "s");
        Watch w1 = cacher.watch("/configmaps", from(Long.toString(start)));
        Watch w2 = cacher.watch("/configmaps", from(Long.toString(start)));
        create("default", "shared");
        WatchEvent e1 = w1.next(WAIT);
        WatchEvent e2 = w2.next(WAIT);
        assertNotNull(e1.json());
        assertSame(e1.json().get(), e2.json().get(), "serialized once, for every watcher");
        w1.close();
        w2.close();
    }

    @Test
    void readsAfterAWriteSeeIt() throws Exception {
        cacher(1000, 100);
        for (int i = 0; i < 20; i++) {
            long rv = create("default", "w" + i);
            ObjectNode got = cacher.get("/configmaps/default/w" + i, new io.kubelix.api.storage.GetOptions(false, ""));
            assertEquals(rv, Long.parseLong(got.path("metadata").path("resourceVersion").asText()));
            assertEquals(i + 1, cacher.getList("/configmaps/default", ListOptions.recursiveAll()).items().size());
        }
        cacher.delete("/configmaps/default/w0", Preconditions.NONE, obj -> { });
        assertEquals(19, cacher.getList("/configmaps/default", ListOptions.recursiveAll()).items().size());
        CacherStats stats = cacher.stats();
        assertEquals(41, stats.readsFromCache() + stats.readsFromStorage(), "every read is counted once");
    }

    /**
     * A backend that ends its watch without an error (as a storage bundle's update does) is watched
     * again from the cache's revision: the watchers keep every event, and the cache does not relist.
     */
    @Test
    void aWatchTheBackendEndsIsResumedWithoutEndingTheWatchers() throws Exception {
        StorageInterface real = memory.forResource(new StorageConfig(CONFIGMAPS, "/configmaps"));
        java.util.concurrent.BlockingQueue<Watch> backendWatches = new java.util.concurrent.LinkedBlockingQueue<>();
        StorageInterface ending = (StorageInterface) java.lang.reflect.Proxy.newProxyInstance(
                StorageInterface.class.getClassLoader(), new Class<?>[] {StorageInterface.class}, (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(real, args);
                        if (result instanceof Watch w) {
                            backendWatches.add(w);
                        }
                        return result;
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        cacher = new Cacher(ending, CONFIGMAPS, "/configmaps",
                new CacherOptions(1000, 100, Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(3)));
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!cacher.ready() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        long start = create("default", "before");
        Watch watcher = cacher.watch("/configmaps", from(Long.toString(start)));
        long relists = cacher.stats().relists();

        Watch first = backendWatches.poll(5, TimeUnit.SECONDS);
        assertNotNull(first, "the cache watches the backend");
        first.close();
        assertNotNull(backendWatches.poll(5, TimeUnit.SECONDS), "the cache watches the backend again");
        create("default", "after");

        WatchEvent e = watcher.next(WAIT);
        assertNotNull(e, "the watcher goes on");
        while (e.type() == WatchEvent.Type.BOOKMARK) {
            e = watcher.next(WAIT);
            assertNotNull(e, "the watcher goes on");
        }
        assertEquals(WatchEvent.Type.ADDED, e.type());
        assertEquals("after", e.object().path("metadata").path("name").asText());
        assertEquals(relists, cacher.stats().relists(), "no relist");
        watcher.close();
    }
}
