package io.kubelix.runtime.controller.informer;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.registry.GenericStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.kubelix.runtime.controller.informer.InformerFixture.CONFIGMAPS_V1;
import static io.kubelix.runtime.controller.informer.InformerFixture.PATIENCE;
import static io.kubelix.runtime.controller.informer.InformerFixture.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** client-go's shared informer semantics, over a real watch cache and generic Store. */
class InformerTest {
    private final InformerFixture fx = new InformerFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private SharedIndexInformer synced(InformerFixture.Recorder recorder) throws InterruptedException {
        SharedIndexInformer informer = fx.factory.forResource(CONFIGMAPS_V1);
        ResourceEventHandlerRegistration r = informer.addEventHandler(recorder);
        assertTrue(r.waitForSync(PATIENCE), "the handler syncs");
        return informer;
    }

    @Test
    void syncsWithTheObjectsThereThenTellsEveryChangeInOrder() throws Exception {
        ObjectNode a = fx.create("default", "a", Map.of());
        ObjectNode b = fx.create("other", "b", Map.of());
        InformerFixture.Recorder recorder = new InformerFixture.Recorder();
        SharedIndexInformer informer = synced(recorder);
        assertTrue(informer.hasSynced());
        assertEquals(List.of("add default/a " + rv(a) + " initial", "add other/b " + rv(b) + " initial"),
                recorder.next(2));

        ObjectNode a2 = fx.update("default", "a", "2");
        ObjectNode b2 = fx.delete("other", "b");
        ObjectNode c = fx.create("default", "c", Map.of());
        ObjectNode a3 = fx.update("default", "a", "3");
        assertEquals(List.of(
                "update default/a " + rv(a) + "->" + rv(a2),
                "delete other/b " + rv(b2),
                "add default/c " + rv(c),
                "update default/a " + rv(a2) + "->" + rv(a3)), recorder.next(4));
        assertEquals(rv(a3), informer.lastSyncResourceVersion());
        assertEquals(List.of("default/a", "default/c"),
                informer.lister().list().stream().map(SharedIndexInformer::keyOf).toList());
    }

    @Test
    void theFactorySharesOneInformerPerResource() {
        assertSame(fx.factory.forResource(CONFIGMAPS_V1), fx.factory.forResource(CONFIGMAPS_V1));
        assertThrows(IllegalArgumentException.class,
                () -> fx.factory.forResource(new io.kubelix.api.schema.GroupVersionResource("", "v1", "configmaps/status")));
    }

    @Test
    void aHandlerAddedLaterGetsTheCacheThenLaterChanges() throws Exception {
        ObjectNode a = fx.create("default", "a", Map.of());
        InformerFixture.Recorder first = new InformerFixture.Recorder();
        SharedIndexInformer informer = synced(first);
        first.next(1);
        ObjectNode b = fx.create("default", "b", Map.of());
        first.next(1);

        InformerFixture.Recorder second = new InformerFixture.Recorder();
        ResourceEventHandlerRegistration r = informer.addEventHandler(second);
        assertTrue(r.waitForSync(PATIENCE));
        assertEquals(List.of("add default/a " + rv(a) + " initial", "add default/b " + rv(b) + " initial"),
                second.next(2));
        ObjectNode b2 = fx.update("default", "b", "2");
        assertEquals(List.of("update default/b " + rv(b) + "->" + rv(b2)), second.next(1));
        assertEquals(List.of("update default/b " + rv(b) + "->" + rv(b2)), first.next(1));

        r.close();
        fx.update("default", "b", "3");
        first.next(1);
        assertNull(second.events.poll(), "a removed handler is told nothing");
    }

    @Test
    void namedIndexersAndTheNamespaceListerFollowTheObjects() throws Exception {
        fx.create("default", "a", Map.of("app", "web"));
        fx.create("default", "b", Map.of("app", "db"));
        fx.create("other", "c", Map.of("app", "web"));
        InformerFixture.Recorder recorder = new InformerFixture.Recorder();
        SharedIndexInformer informer = synced(recorder);
        recorder.next(3);
        // Added after sync: built from the cache at once.
        informer.addIndexers(Map.of("app", obj -> {
            String app = obj.path("metadata").path("labels").path("app").asText("");
            return app.isEmpty() ? List.of() : List.of(app);
        }));
        assertEquals(List.of("default/a", "other/c"), keys(informer.byIndex("app", "web")));
        assertThrows(IllegalArgumentException.class, () -> informer.addIndexers(Map.of("app", o -> List.of())));

        fx.relabel("default", "a", "db");
        fx.delete("other", "c");
        fx.create("other", "d", Map.of("app", "web"));
        recorder.next(3);
        assertEquals(List.of("other/d"), keys(informer.byIndex("app", "web")));
        assertEquals(List.of("default/a", "default/b"), keys(informer.byIndex("app", "db")));
        assertEquals(List.of(), informer.byIndex("app", "cache"));

        GenericLister lister = informer.lister();
        assertEquals(List.of("default/a", "default/b"), keys(lister.byNamespace("default").list()));
        assertEquals("db", lister.byNamespace("default").get("a").orElseThrow()
                .path("metadata").path("labels").path("app").asText());
        assertFalse(lister.byNamespace("default").get("d").isPresent());
        assertEquals(List.of("default/a", "default/b"),
                keys(informer.byIndex(SharedIndexInformer.NAMESPACE_INDEX, "default")));
    }

    @Test
    void aHandlerWithAResyncPeriodIsToldOfEveryObjectAgainAsAnUpdateToItself() throws Exception {
        ObjectNode a = fx.create("default", "a", Map.of());
        SharedIndexInformer informer = fx.factory.forResource(CONFIGMAPS_V1);
        InformerFixture.Recorder plain = new InformerFixture.Recorder();
        informer.addEventHandler(plain);
        InformerFixture.Recorder resyncing = new InformerFixture.Recorder();
        informer.addEventHandler(resyncing, Duration.ofMillis(10));
        assertEquals(List.of("add default/a " + rv(a) + " initial"), resyncing.next(1));
        String again = "update default/a " + rv(a) + "->" + rv(a);
        assertEquals(List.of(again, again), resyncing.next(2));
        assertEquals(List.of("add default/a " + rv(a) + " initial"), plain.next(1));
        assertNull(plain.events.poll(), "a handler without a resync period is not resynced");
    }

    @Test
    void afterItsWatchExpiresItListsAgainAndTellsExactlyWhatChangedMeanwhile() throws Exception {
        ObjectNode a = fx.create("default", "a", Map.of());
        ObjectNode b = fx.create("default", "b", Map.of());
        ObjectNode d = fx.create("default", "d", Map.of());
        ExpiringStore expiring = new ExpiringStore(fx.store());
        fx.serve(expiring);
        InformerFixture.Recorder recorder = new InformerFixture.Recorder();
        SharedIndexInformer informer = synced(recorder);
        recorder.next(3);
        assertEquals(1, expiring.lists.get());

        // The informer's watch misses these, then expires.
        expiring.hide = true;
        ObjectNode a2 = fx.update("default", "a", "2");
        fx.delete("default", "b");
        ObjectNode c = fx.create("default", "c", Map.of());
        expiring.expire();

        List<String> told = recorder.next(3);
        assertEquals(List.of("update default/a " + rv(a) + "->" + rv(a2), "add default/c " + rv(c),
                "delete default/b " + rv(b)), told);
        assertEquals(2, expiring.lists.get(), "it listed again");
        ObjectNode d2 = fx.update("default", "d", "2");
        assertEquals(List.of("update default/d " + rv(d) + "->" + rv(d2)), recorder.next(1),
                "it watches again from the new list, and d's unchanged state was not told twice");
        assertEquals(List.of("default/a", "default/c", "default/d"), keys(informer.lister().list()));
    }

    @Test
    void itResumesFromItsLastRevisionWhenThePluginServingTheResourceIsUpdated() throws Exception {
        ObjectNode a = fx.create("default", "a", Map.of());
        InformerFixture.Recorder recorder = new InformerFixture.Recorder();
        SharedIndexInformer informer = synced(recorder);
        recorder.next(1);

        // A new revision of the plugin: a new Store over the same watch cache.
        ExpiringStore updated = new ExpiringStore(fx.newStore());
        fx.serve(updated);
        ObjectNode b = fx.create("default", "b", Map.of());
        assertEquals(List.of("add default/b " + rv(b)), recorder.next(1));
        assertEquals(0, updated.lists.get(), "no list: the watch resumed from the last revision");
        assertTrue(updated.watches.get() >= 1);
        assertNull(recorder.events.poll(), "nothing told twice");
    }

    @Test
    void itKeepsItsCacheWhileTheResourceIsNotServedAndCatchesUpWhenItComesBack() throws Exception {
        ObjectNode a = fx.create("default", "a", Map.of());
        InformerFixture.Recorder recorder = new InformerFixture.Recorder();
        SharedIndexInformer informer = synced(recorder);
        recorder.next(1);

        fx.serve(null);
        // Written through the Store the plugin had, as another server sharing the storage would.
        ObjectNode b = fx.create("default", "b", Map.of());
        ObjectNode a2 = fx.update("default", "a", "2");
        assertEquals(rv(a), rv(informer.getByKey("default/a")), "the cache keeps its last state");

        fx.serve(fx.newStore());
        assertEquals(List.of("add default/b " + rv(b), "update default/a " + rv(a) + "->" + rv(a2)), recorder.next(2));
    }

    @Test
    void aBundleReleasingTheFactoryLosesItsHandlersAndIndexersButOthersKeepTheirs() throws Exception {
        fx.create("default", "a", Map.of("app", "web"));
        BundleInformerFactory plugin = new BundleInformerFactory(fx.factory, "plugin");
        BundleInformerFactory other = new BundleInformerFactory(fx.factory, "other");
        InformerFixture.Recorder mine = new InformerFixture.Recorder();
        InformerFixture.Recorder theirs = new InformerFixture.Recorder();
        SharedIndexInformer informer = plugin.forResource(CONFIGMAPS_V1);
        informer.addEventHandler(mine).waitForSync(PATIENCE);
        informer.addIndexers(Map.of("app", obj -> List.of(obj.path("metadata").path("labels").path("app").asText())));
        other.forResource(CONFIGMAPS_V1).addEventHandler(theirs).waitForSync(PATIENCE);
        var queue = plugin.<String>newRateLimitingQueue("plugin-queue");
        mine.next(1);
        theirs.next(1);

        plugin.deactivate();
        assertTrue(queue.shuttingDown());
        fx.update("default", "a", "2");
        theirs.next(1);
        assertNull(mine.events.poll(), "the released bundle's handler is told nothing");
        // Its new revision adds the indexer again under the same name.
        BundleInformerFactory updated = new BundleInformerFactory(fx.factory, "plugin");
        updated.forResource(CONFIGMAPS_V1).addIndexers(Map.of("app", obj -> List.of("x")));
        assertEquals(List.of("default/a"), keys(informer.byIndex("app", "x")));
    }

    /**
     * A plugin's controller with core-api alone: a queue, two workers reconciling it (a failure is
     * retried), and, when the plugin's bundle releases the factory, the workers finish the keys
     * running and queued and end before the release returns.
     */
    @Test
    void aPluginsWorkersReconcileItsQueueAndEndDrainedWhenItsBundleReleasesTheFactory() throws Exception {
        BundleInformerFactory plugin = new BundleInformerFactory(fx.factory, "plugin");
        RateLimitingQueue<String> queue = plugin.newRateLimitingQueue("plugin-controller");
        java.util.Set<String> reconciled = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicInteger flakyAttempts = new AtomicInteger();
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        plugin.runWorkers("plugin-controller", queue, 2, key -> {
            if (key.equals("flaky") && flakyAttempts.getAndIncrement() == 0) {
                throw new IllegalStateException("first attempt fails");
            }
            if (key.startsWith("slow")) {
                gate.await();
            }
            reconciled.add(key);
        });
        queue.add("a");
        queue.add("flaky");
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!reconciled.containsAll(List.of("a", "flaky")) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(java.util.Set.of("a", "flaky"), reconciled);
        assertEquals(2, flakyAttempts.get(), "the failed key was retried");
        assertEquals(0, queue.numRequeues("flaky"), "its failures were forgotten once it succeeded");

        queue.add("slow-1");
        queue.add("slow-2");
        queue.add("b"); // both workers are held by the slow keys: b waits in the queue
        Thread release = new Thread(plugin::deactivate);
        release.start();
        release.join(300);
        assertTrue(release.isAlive(), "the release waits for the keys being reconciled");
        gate.countDown();
        release.join(PATIENCE.toMillis());
        assertFalse(release.isAlive());
        assertEquals(java.util.Set.of("a", "flaky", "slow-1", "slow-2", "b"), reconciled, "the queue was drained");
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("kubelix-plugin-controller")), "the workers ended");
        queue.add("c");
        assertEquals(5, reconciled.size(), "nothing runs after the release");
    }

    @Test
    void waitForCacheSyncWaitsForEveryResourceAndGivesUpOnOneNotServed() throws Exception {
        fx.create("default", "a", Map.of());
        assertTrue(fx.factory.waitForCacheSync(PATIENCE, CONFIGMAPS_V1));
        var secrets = new io.kubelix.api.schema.GroupVersionResource("", "v1", "secrets");
        assertFalse(fx.factory.waitForCacheSync(Duration.ofMillis(50), CONFIGMAPS_V1, secrets));
        assertFalse(fx.factory.forResource(secrets).hasSynced());
    }

    /** informer-sync waits for the informers of served resources only, and passes once they have listed. */
    @Test
    void theInformerSyncCheckWaitsForTheServedResourcesInformers() throws Exception {
        InformerSyncCheck check = new InformerSyncCheck(fx.factory);
        check.check(); // no informer yet
        var secrets = new io.kubelix.api.schema.GroupVersionResource("", "v1", "secrets");
        fx.factory.forResource(secrets);
        check.check(); // secrets are not served: nothing to wait for
        fx.serve(null);
        fx.factory.forResource(CONFIGMAPS_V1);
        check.check();
        assertEquals(java.util.List.of(), fx.factory.unsynced());

        fx.serve(fx.newStore());
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!fx.factory.unsynced().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        check.check();
        assertTrue(fx.factory.forResource(CONFIGMAPS_V1).hasSynced());

        // A served resource whose storage cannot list (its backend is missing) keeps it failing, named.
        var leases = new io.kubelix.api.schema.GroupVersionResource("coordination.k8s.io", "v1", "leases");
        fx.served.serve(leases, new Unlistable());
        fx.factory.forResource(leases);
        IllegalStateException e = assertThrows(IllegalStateException.class, check::check);
        assertEquals("1 informers not synced yet: coordination.k8s.io/v1/leases", e.getMessage());
    }

    /** A served storage whose every list fails, as one whose storage backend is missing. */
    private static final class Unlistable implements io.kubelix.api.registry.Lister, io.kubelix.api.registry.Watcher {
        @Override
        public io.kubelix.api.storage.ListResult list(io.kubelix.api.request.RequestContext ctx,
                                                      io.kubelix.api.storage.ListOptions options) {
            throw io.kubelix.api.errors.StatusException.serviceUnavailable("no storage");
        }

        @Override
        public io.kubelix.api.storage.Watch watch(io.kubelix.api.request.RequestContext ctx,
                                                  io.kubelix.api.storage.ListOptions options) {
            throw io.kubelix.api.errors.StatusException.serviceUnavailable("no storage");
        }

        @Override
        public String kind() {
            return "Lease";
        }

        @Override
        public boolean namespaced() {
            return true;
        }

        @Override
        public String singularName() {
            return "lease";
        }
    }

    /**
     * An informer of a resource nobody writes reaches a revision written elsewhere by asking its
     * watch for progress, and its handler has then been told of every change of its own up to it.
     */
    @Test
    void anIdleInformerIsObservedAtARevisionWrittenElsewhere() throws Exception {
        ObjectNode a = fx.create("default", "a", Map.of());
        InformerFixture.Recorder recorder = new InformerFixture.Recorder();
        ResourceEventHandlerRegistration r = fx.factory.forResource(CONFIGMAPS_V1).addEventHandler(recorder);
        assertTrue(r.waitForSync(PATIENCE));
        ObjectNode b = fx.create("default", "b", Map.of());
        var secrets = new io.kubelix.api.schema.GroupVersionResource("", "v1", "secrets");
        GenericStore secretStore = fx.served.serve(secrets, "Secret", true);
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        s.putObject("metadata").put("name", "s").put("namespace", "default");
        long elsewhere = Long.parseLong(rv(secretStore.create(RequestContext.system("default"), s,
                io.kubelix.api.registry.CreateOptions.DEFAULT)));

        assertTrue(fx.factory.awaitObserved(r, elsewhere, System.nanoTime() + PATIENCE.toNanos()));
        assertTrue(Long.parseLong(fx.factory.forResource(CONFIGMAPS_V1).lastSyncResourceVersion()) >= elsewhere);
        assertEquals(List.of("add default/a " + rv(a) + " initial", "add default/b " + rv(b)), recorder.drained());
        assertFalse(fx.factory.awaitObserved(r, elsewhere + 1_000, System.nanoTime() + 200_000_000L),
                "a revision the storage has not reached is not observed");
    }

    private static List<String> keys(List<ObjectNode> objects) {
        return objects.stream().map(SharedIndexInformer::keyOf).toList();
    }

    /**
     * A Store whose open watch the test can blind ({@link #hide}: events are dropped) and then
     * expire (an ERROR 410, as when the watch cache's window has moved past the watcher), counting
     * lists and watches.
     */
    static final class ExpiringStore implements Lister, Watcher {
        private final GenericStore store;
        final AtomicInteger lists = new AtomicInteger();
        final AtomicInteger watches = new AtomicInteger();
        volatile boolean hide;
        private final java.util.concurrent.BlockingQueue<Expirable> opened = new java.util.concurrent.LinkedBlockingQueue<>();

        ExpiringStore(GenericStore store) {
            this.store = store;
        }

        /** Expires the informer's first watch, once it has opened it. */
        void expire() throws InterruptedException {
            Expirable w = opened.poll(PATIENCE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            if (w == null) {
                throw new AssertionError("the informer opened no watch");
            }
            w.expire();
        }

        @Override
        public ListResult list(RequestContext ctx, ListOptions options) {
            lists.incrementAndGet();
            hide = false;
            return store.list(ctx, options);
        }

        @Override
        public Watch watch(RequestContext ctx, ListOptions options) {
            watches.incrementAndGet();
            Expirable w = new Expirable(store.watch(ctx, options));
            opened.add(w);
            return w;
        }

        @Override
        public String kind() {
            return store.kind();
        }

        @Override
        public boolean namespaced() {
            return store.namespaced();
        }

        @Override
        public String singularName() {
            return store.singularName();
        }

        private final class Expirable implements Watch {
            private final Watch delegate;
            private volatile boolean expired;
            private boolean errorSent;

            Expirable(Watch delegate) {
                this.delegate = delegate;
            }

            void expire() {
                expired = true;
                delegate.close();
            }

            @Override
            public WatchEvent next(Duration timeout) throws InterruptedException {
                long deadline = System.nanoTime() + timeout.toNanos();
                while (true) {
                    if (expired) {
                        if (!errorSent) {
                            errorSent = true;
                            return WatchEvent.error(StatusException.resourceExpired("too old resource version"));
                        }
                        return null;
                    }
                    long left = deadline - System.nanoTime();
                    WatchEvent e = delegate.next(Duration.ofNanos(Math.max(0, left)));
                    if (expired) {
                        continue;
                    }
                    if (e == null || !hide) {
                        return e;
                    }
                    if (System.nanoTime() - deadline > 0) {
                        return null;
                    }
                }
            }

            @Override
            public boolean done() {
                return expired ? errorSent : delegate.done();
            }

            @Override
            public void close() {
                delegate.close();
            }
        }
    }
}
