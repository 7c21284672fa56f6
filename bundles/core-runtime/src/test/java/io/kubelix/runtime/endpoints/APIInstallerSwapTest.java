package io.kubelix.runtime.endpoints;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.runtime.server.PluginSwaps;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A resource bundle update switches routes from the old storage to the new one with no gap (requests
 * meanwhile wait for the new one), drains the old one before releasing it, and keeps watches open;
 * a removal ends them.
 */
class APIInstallerSwapTest {
    private static final GroupVersion GV = new GroupVersion("sample.kubelix.io", "v1");
    private static final long BUNDLE = 5L;

    private final Set<Long> updating = ConcurrentHashMap.newKeySet();

    private APIInstaller installer(Duration grace) {
        return new APIInstaller(new PluginSwaps(p -> updating.contains(p.get(Constants.SERVICE_BUNDLEID)), grace));
    }

    /** A controller's call enters like a request: it holds up an update, and one that arrives during an update waits for the new revision. */
    @Test
    void aCallThatEntersHoldsUpAnUpdateAndOneArrivingDuringItGetsTheNewRevision() throws Exception {
        APIInstaller installer = installer(Duration.ofSeconds(30));
        Storage v1 = new Storage();
        RESTStorageProvider p1 = provider();
        installer.install(p1, "Widgets", group(v1), props(10L));

        APIInstaller.Entered first = installer.enter(GV, "widgets", true);
        assertSame(v1, first.storage());
        assertEquals(BUNDLE, first.inFlight().bundleId(), "the call knows whose update it holds up");
        updating.add(BUNDLE);
        CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> installer.uninstall(p1, props(10L)));
        await(first.inFlight()::isOutgoing, "the update has begun");
        CompletableFuture<APIInstaller.Entered> second = CompletableFuture.supplyAsync(() -> {
            try {
                return installer.enter(GV, "widgets", true);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThrows(TimeoutException.class, () -> stopping.get(200, TimeUnit.MILLISECONDS),
                "the stop waits for the call on the old revision");
        assertThrows(TimeoutException.class, () -> second.get(200, TimeUnit.MILLISECONDS),
                "a call arriving during the update does not enter the old revision");
        first.inFlight().exit();
        stopping.get(10, TimeUnit.SECONDS);

        updating.remove(BUNDLE);
        Storage v2 = new Storage();
        installer.install(provider(), "Widgets", group(v2), props(11L));
        APIInstaller.Entered entered = second.get(10, TimeUnit.SECONDS);
        assertSame(v2, entered.storage());
        entered.inFlight().exit();
    }

    @Test
    void anUpdatedProviderServesUntilItsNewRevisionThenItsStorageIsDrainedAndDestroyed() throws Exception {
        APIInstaller installer = installer(Duration.ofSeconds(30));
        Storage v1 = new Storage();
        RESTStorageProvider p1 = provider();
        installer.install(p1, "Widgets", group(v1), props(10L));

        InFlight running = installer.routes().inFlight(v1);
        assertTrue(running.enter(), "a request on the old revision, running when the update starts");
        updating.add(BUNDLE);
        CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> installer.uninstall(p1, props(10L)));
        await(running::isOutgoing, "new requests wait for the new revision");
        assertSame(v1, installer.routes().lookup(GV, "widgets"), "the route stays while the bundle is updated");
        assertThrows(TimeoutException.class, () -> stopping.get(200, TimeUnit.MILLISECONDS),
                "the bundle's stop waits for the request running on it (a refresh may discard its class loader)");
        CompletableFuture<RouteTable> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return installer.awaitSwap(running);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        running.exit();
        stopping.get(10, TimeUnit.SECONDS);

        updating.remove(BUNDLE);
        Storage v2 = new Storage();
        installer.install(provider(), "Widgets", group(v2), props(11L));
        assertSame(v2, installer.routes().lookup(GV, "widgets"));
        assertSame(v2, waiting.get(10, TimeUnit.SECONDS).lookup(GV, "widgets"), "a waiting request gets the new revision");
        assertEquals(1, installer.provided().size(), installer.provided()::toString);
        assertFalse(running.enter(), "a late request on the old route must look it up again");
        await(() -> v1.destroyed.get() == 1, "old storage destroyed once drained");
        assertEquals(0, v2.destroyed.get());
    }

    @Test
    void watchesStayOpenAcrossAnUpdateAndEndWhenTheResourceIsRemoved() {
        APIInstaller installer = installer(Duration.ofSeconds(30));
        RESTStorageProvider p1 = provider();
        installer.install(p1, "Widgets", group(new Storage()), props(10L));
        AtomicInteger ended = new AtomicInteger();
        installer.trackWatch(GV, "widgets", ended::incrementAndGet);

        updating.add(BUNDLE);
        installer.uninstall(p1, props(10L));
        updating.remove(BUNDLE);
        RESTStorageProvider p2 = provider();
        installer.install(p2, "Widgets", group(new Storage()), props(11L));
        assertEquals(0, ended.get(), "an update does not end watches");

        installer.uninstall(p2, props(11L));
        assertNull(installer.routes().lookup(GV, "widgets"), "a removal takes the resource away at once");
        assertEquals(1, ended.get(), "a removal ends the resource's watches");

        AtomicInteger late = new AtomicInteger();
        installer.trackWatch(GV, "widgets", late::incrementAndGet);
        assertEquals(1, late.get(), "a watch registered after the removal ends at once");
    }

    @Test
    void aFinishedWatchIsNotEndedAgain() {
        APIInstaller installer = installer(Duration.ofSeconds(30));
        RESTStorageProvider p = provider();
        installer.install(p, "Widgets", group(new Storage()), props(10L));
        AtomicInteger ended = new AtomicInteger();
        installer.trackWatch(GV, "widgets", ended::incrementAndGet).run();
        installer.uninstall(p, props(10L));
        assertEquals(0, ended.get());
    }

    @Test
    void anUpdateWhoseNewRevisionNeverComesIsUninstalledAfterTheGracePeriod() throws Exception {
        APIInstaller installer = installer(Duration.ofMillis(100));
        Storage v1 = new Storage();
        RESTStorageProvider p1 = provider();
        installer.install(p1, "Widgets", group(v1), props(10L));
        AtomicInteger ended = new AtomicInteger();
        installer.trackWatch(GV, "widgets", ended::incrementAndGet);

        updating.add(BUNDLE);
        installer.uninstall(p1, props(10L));
        assertSame(v1, installer.routes().lookup(GV, "widgets"));
        await(() -> installer.routes().lookup(GV, "widgets") == null, "uninstalled after the grace period");
        assertEquals(1, ended.get());
        await(() -> v1.destroyed.get() == 1, "storage destroyed");
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(5);
        }
    }

    private static Map<String, Object> props(long serviceId) {
        return Map.of(Constants.SERVICE_ID, serviceId, Constants.SERVICE_BUNDLEID, BUNDLE, "component.name", "Widgets");
    }

    private static APIGroupInfo group(RESTStorage storage) {
        return new APIGroupInfo(GV.group(), List.of(GV.version()), Map.of(GV.version(), Map.of("widgets", storage)));
    }

    private static RESTStorageProvider provider() {
        return new RESTStorageProvider() {
            @Override
            public String groupName() {
                return GV.group();
            }

            @Override
            public APIGroupInfo newRESTStorage(RESTOptionsGetter restOptionsGetter) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static final class Storage implements RESTStorage {
        final AtomicInteger destroyed = new AtomicInteger();

        @Override
        public String kind() {
            return "Widget";
        }

        @Override
        public boolean namespaced() {
            return true;
        }

        @Override
        public String singularName() {
            return "widget";
        }

        @Override
        public void destroy() {
            destroyed.incrementAndGet();
        }
    }
}
