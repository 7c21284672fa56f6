package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcd.jetcd.options.GetOption;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.api.storage.WatchEvent.Type;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.kubelix.storage.etcd.EtcdTestSupport.CONFIGMAPS;
import static io.kubelix.storage.etcd.EtcdTestSupport.configMap;
import static io.kubelix.storage.etcd.EtcdTestSupport.key;
import static io.kubelix.storage.etcd.EtcdTestSupport.next;
import static io.kubelix.storage.etcd.EtcdTestSupport.rv;
import static io.kubelix.storage.etcd.EtcdTestSupport.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What only an etcd backend promises: several instances on one etcd, restarts, compaction, clean close. */
class EtcdBackendTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    @RegisterExtension
    static final EtcdPerClass ETCD = new EtcdPerClass();

    private final List<EtcdStorageBackend> open = new ArrayList<>();
    private String prefix;

    @BeforeEach
    void freshPrefix() {
        prefix = "/backend-" + PREFIXES.incrementAndGet() + "/registry";
    }

    @AfterEach
    void closeBackends() {
        open.forEach(EtcdStorageBackend::deactivate);
    }

    private EtcdStorageBackend newBackend() {
        EtcdStorageBackend b = EtcdTestSupport.backend(ETCD.endpoint(), prefix);
        open.add(b);
        return b;
    }

    @Test
    void twoInstancesSeeEachOthersWritesAndWatches() throws Exception {
        StorageInterface a = newBackend().forResource(CONFIGMAPS);
        StorageInterface b = newBackend().forResource(CONFIGMAPS);
        ObjectNode created = a.create(key("x"), configMap("x", "1"));
        assertEquals(created, b.get(key("x"), GetOptions.DEFAULT), "B reads what A wrote, with its resourceVersion");
        try (Watch wb = b.watch("/configmaps/default", ListOptions.recursiveAll().withResourceVersion("0"));
             Watch wa = a.watch("/configmaps/default",
                     ListOptions.recursiveAll().withResourceVersion(Long.toString(rv(created))))) {
            WatchEvent initial = next(wb, WAIT);
            assertEquals(Type.ADDED, initial.type());
            assertEquals(rv(created), rv(initial.object()));
            ObjectNode updated = a.guaranteedUpdate(key("x"), false, Preconditions.NONE, (cur, r) -> {
                cur.with("data").put("value", "2");
                return cur;
            });
            WatchEvent modified = next(wb, WAIT);
            assertEquals(Type.MODIFIED, modified.type());
            assertEquals(rv(updated), rv(modified.object()));
            ObjectNode byB = b.create(key("y"), configMap("y", "1"));
            assertEquals(Type.MODIFIED, next(wa, WAIT).type(), "A sees its own update");
            WatchEvent added = next(wa, WAIT);
            assertEquals(Type.ADDED, added.type(), "A's watch sees B's create");
            assertEquals(rv(byB), rv(added.object()));
        }
        assertEquals(2, a.count("/configmaps/default"));
        assertEquals(a.currentResourceVersion(), b.currentResourceVersion(), "one revision for both instances");
    }

    @Test
    void concurrentUpdatesFromTwoInstancesLoseNothing() throws Exception {
        List<StorageInterface> instances = List.of(newBackend().forResource(CONFIGMAPS),
                newBackend().forResource(CONFIGMAPS));
        instances.get(0).create(key("counter"), configMap("counter", "0"));
        int threadsPerInstance = 3;
        int increments = 20;
        ExecutorService pool = Executors.newFixedThreadPool(instances.size() * threadsPerInstance);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (StorageInterface s : instances) {
                for (int t = 0; t < threadsPerInstance; t++) {
                    futures.add(pool.submit(() -> {
                        go.await();
                        for (int i = 0; i < increments; i++) {
                            s.guaranteedUpdate(key("counter"), false, Preconditions.NONE, (cur, r) -> {
                                calls.incrementAndGet();
                                cur.with("data").put("value", Integer.toString(Integer.parseInt(value(cur)) + 1));
                                return cur;
                            });
                        }
                        return null;
                    }));
                }
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        int total = instances.size() * threadsPerInstance * increments;
        ObjectNode end = instances.get(1).get(key("counter"), GetOptions.DEFAULT);
        assertEquals(Integer.toString(total), value(end), "no increment lost");
        assertTrue(calls.get() > total, "the writers did conflict, and retried (" + calls.get() + " calls)");
    }

    @Test
    void reopenedBackendKeepsObjectsAndResourceVersionsAndWatchContinues() throws Exception {
        EtcdStorageBackend first = newBackend();
        StorageInterface s1 = first.forResource(CONFIGMAPS);
        List<ObjectNode> written = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            written.add(s1.create(key("o" + i), configMap("o" + i, "v")));
        }
        long resumeFrom = rv(written.get(2));
        ObjectNode afterClose = null;
        first.deactivate();
        open.remove(first);

        StorageInterface s2 = newBackend().forResource(CONFIGMAPS);
        for (ObjectNode o : written) {
            ObjectNode got = s2.get(key(o.path("metadata").path("name").asText()), GetOptions.DEFAULT);
            assertEquals(o, got, "object and resourceVersion survive the restart");
        }
        assertEquals(written, s2.getList("/configmaps/default", ListOptions.recursiveAll()).items());
        try (Watch w = s2.watch("/configmaps/default",
                ListOptions.recursiveAll().withResourceVersion(Long.toString(resumeFrom)))) {
            assertEquals(rv(written.get(3)), rv(next(w, WAIT).object()));
            assertEquals(rv(written.get(4)), rv(next(w, WAIT).object()));
            afterClose = s2.create(key("new"), configMap("new", "v"));
            WatchEvent e = next(w, WAIT);
            assertEquals(Type.ADDED, e.type());
            assertEquals(rv(afterClose), rv(e.object()));
        }
    }

    @Test
    void compactionIsCoordinatedThroughTheCompactRevKey() {
        EtcdStorageBackend b = newBackend();
        StorageInterface s = b.forResource(CONFIGMAPS);
        EtcdClient client = b.session().client();
        // a clean slate for compact_rev_key, which every test on this etcd shares
        client.txn(txn -> txn.Then(io.etcd.jetcd.op.Op.delete(Keys.bytes(Compactor.COMPACT_REV_KEY),
                io.etcd.jetcd.options.DeleteOption.DEFAULT)), Compactor.COMPACT_REV_KEY);
        Compactor one = new Compactor(client);
        Compactor two = new Compactor(client);

        one.run();                      // creates the key (version 1); nothing to compact yet
        two.run();                      // loses: learns version 1
        long old = rv(s.create(key("a"), configMap("a", "1")));
        long seen = client.currentRevision();
        one.run();                      // wins: compacts to the revision it saw at its last run
        two.run();                      // loses again: learns version 2, compacts nothing
        assertEquals(2, compactRevKeyVersion(client));
        // the revision "one" saw at its first run is before "a": reads before it are compacted,
        // "a" itself is still readable at its own revision
        assertEquals(1, s.getList("/configmaps/default", new ListOptions(Long.toString(old),
                ResourceVersionMatch.EXACT, SelectionPredicate.EVERYTHING, true, 0, null, false)).items().size());
        StatusException expired = assertThrows(StatusException.class, () -> s.getList("/configmaps/default",
                new ListOptions(Long.toString(old - 2), ResourceVersionMatch.EXACT, SelectionPredicate.EVERYTHING,
                        true, 0, null, false)));
        assertEquals(410, expired.code());
        two.run();                      // now "two" wins, compacting to what it saw last time
        assertEquals(3, compactRevKeyVersion(client));
        StatusException gone = assertThrows(StatusException.class, () -> s.getList("/configmaps/default",
                new ListOptions(Long.toString(old), ResourceVersionMatch.EXACT, SelectionPredicate.EVERYTHING,
                        true, 0, null, false)));
        assertEquals(410, gone.code(), "compacted past " + old + " (seen " + seen + ")");
    }

    private static long compactRevKeyVersion(EtcdClient client) {
        return client.get(Keys.bytes(Compactor.COMPACT_REV_KEY), GetOption.DEFAULT, Compactor.COMPACT_REV_KEY, 0)
                .getKvs().get(0).getVersion();
    }

    @Test
    void requestProgressSendsABookmarkAfterEarlierEvents() throws Exception {
        StorageInterface s = newBackend().forResource(CONFIGMAPS);
        EtcdWatch w = (EtcdWatch) s.watch("/configmaps/default",
                ListOptions.recursiveAll().withResourceVersion(Long.toString(s.currentResourceVersion())));
        try {
            long created = rv(s.create(key("p"), configMap("p", "1")));
            WatchEvent added = w.next(WAIT);
            assertEquals(Type.ADDED, added.type());
            WatchEvent bookmark = null;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (bookmark == null && System.nanoTime() < deadline) {
                w.requestProgress();
                bookmark = w.next(Duration.ofMillis(300));
            }
            assertTrue(bookmark != null && bookmark.type() == Type.BOOKMARK, "a BOOKMARK on request: " + bookmark);
            assertTrue(rv(bookmark.object()) >= created);
        } finally {
            w.close();
        }
    }

    @Test
    void onReadyTellsWhenAnEventIsQueued() throws Exception {
        StorageInterface s = newBackend().forResource(CONFIGMAPS);
        EtcdWatch w = (EtcdWatch) s.watch("/configmaps/default",
                ListOptions.recursiveAll().withResourceVersion(Long.toString(s.currentResourceVersion())));
        try {
            CountDownLatch ready = new CountDownLatch(1);
            assertTrue(w.onReady(ready::countDown));
            assertEquals(1, ready.getCount(), "nothing queued yet");
            long created = rv(s.create(key("r"), configMap("r", "1")));
            assertTrue(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS), "told when the event arrived");
            WatchEvent e = w.next(Duration.ZERO);
            assertEquals(created, rv(e.object()));
            CountDownLatch done = new CountDownLatch(1);
            w.onReady(done::countDown);
            w.close();
            assertEquals(0, done.getCount(), "told when the stream ends");
        } finally {
            w.close();
        }
    }

    @Test
    void healthCheckPasses() {
        EtcdStorageBackend b = newBackend();
        new EtcdHealthChecker(b.session().client()).check();
    }

    @Test
    void closingTheLastBackendLeavesNoClientThreads() throws Exception {
        EtcdStorageBackend b = EtcdTestSupport.backend(ETCD.endpoint(), prefix);
        StorageInterface s = b.forResource(CONFIGMAPS);
        s.create(key("a"), configMap("a", "1"));
        Watch w = s.watch("/configmaps/default", ListOptions.recursiveAll().withResourceVersion("0"));
        assertEquals(Type.ADDED, next(w, WAIT).type());
        assertFalse(ClientThreads.alive().isEmpty(), "the client has threads while open");
        b.deactivate();
        assertTrue(w.done(), "open watches end with the backend");
        // Threads end asynchronously; on a loaded machine that can take longer than close() waits.
        // A leaked thread never ends, so polling a while longer still catches one.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!ClientThreads.alive().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertEquals(List.of(), ClientThreads.alive().stream().map(Thread::getName).toList(),
                "no jetcd/gRPC/Netty thread outlives the backend");
        assertThrows(IllegalStateException.class, () -> b.forResource(CONFIGMAPS));
    }
}
