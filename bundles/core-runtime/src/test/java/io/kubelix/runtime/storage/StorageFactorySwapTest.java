package io.kubelix.runtime.storage;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.MemoryTestBackends;
import io.kubelix.runtime.server.PluginSwaps;
import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory backend's bundle restarted twice in a row under the storage factory and its watch
 * cache, as FileInstall's update and refresh do: the second restart comes before the cache has
 * watched the version the first one started, which got writes meanwhile.
 */
class StorageFactorySwapTest {
    private static final GroupResource CONFIGMAPS = GroupResource.of("", "configmaps");
    private static final Map<String, Object> MEMORY = Map.of(StorageBackend.NAME_PROPERTY, "memory");
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final List<MemoryStorageBackend> backends = new ArrayList<>();
    private StorageFactory factory;

    @AfterEach
    void tearDown() {
        if (factory != null) {
            factory.deactivate();
        }
        backends.forEach(MemoryTestBackends::close);
    }

    @Test
    void aCacheWatcherGetsEveryEventOnceAndInOrderAcrossTwoRestartsInARow(@TempDir Path dataArea) throws Exception {
        BundleContext bundle = bundleWithDataArea(dataArea);
        factory = new StorageFactory(Map.of("storage-backend", "memory"), bundle,
                new PluginSwaps(properties -> true, Duration.ofSeconds(30)));
        MemoryStorageBackend first = memory(bundle);
        factory.addBackend(first, MEMORY);
        Cacher cacher = (Cacher) factory.storageFor(CONFIGMAPS, "/configmaps");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!cacher.ready() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(cacher.ready(), "the cache lists and starts watching");
        long start = rv(create(cacher, "a"));
        Watch watcher = cacher.watch("/configmaps",
                new ListOptions(Long.toString(start), ResourceVersionMatch.UNSET, null, true, 0, null, false));
        long relists = cacher.stats().relists();
        create(cacher, "b");

        // 1. The update: the first version goes, the second takes its objects over and is written to
        // 2. The refresh: the second version goes before the cache ever watched it, the third takes over
        factory.removeBackend(first, MEMORY);
        MemoryTestBackends.close(first);
        MemoryStorageBackend second = memory(bundle);
        StorageInterface direct = second.forResource(new StorageConfig(CONFIGMAPS, "/configmaps"));
        create(direct, "c");
        create(direct, "d");
        MemoryTestBackends.close(second);
        factory.addBackend(memory(bundle), MEMORY);
        create(cacher, "e");

        List<String> seen = new ArrayList<>();
        long last = start;
        while (seen.size() < 4) {
            WatchEvent e = watcher.next(WAIT);
            assertNotNull(e, "the watch goes on; seen so far: " + seen);
            if (e.type() == WatchEvent.Type.BOOKMARK) {
                continue;
            }
            assertEquals(WatchEvent.Type.ADDED, e.type());
            long rv = rv(e.object());
            assertTrue(rv > last, "in order: " + rv + " after " + last);
            last = rv;
            seen.add(e.object().path("metadata").path("name").asText());
        }
        assertEquals(List.of("b", "c", "d", "e"), seen, "every event once and in order");
        WatchEvent more = watcher.next(Duration.ofMillis(300));
        assertTrue(more == null || more.type() == WatchEvent.Type.BOOKMARK, "nothing more: " + more);
        assertFalse(watcher.done(), "the watcher was not ended");
        assertEquals(relists, cacher.stats().relists(), "the cache did not relist");
        watcher.close();
    }

    private MemoryStorageBackend memory(BundleContext bundle) {
        MemoryStorageBackend backend = MemoryTestBackends.newBackend(10_000, 10_000, 100, bundle);
        backends.add(backend);
        return backend;
    }

    /** The storage-memory bundle as its backends see it: a data area kept across its restarts. */
    private static BundleContext bundleWithDataArea(Path dataArea) {
        return (BundleContext) Proxy.newProxyInstance(BundleContext.class.getClassLoader(),
                new Class<?>[] {BundleContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getDataFile" -> dataArea.resolve((String) args[0]).toFile();
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
    }

    private static ObjectNode create(StorageInterface storage, String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", "ConfigMap");
        o.putObject("metadata").put("name", name).put("namespace", "default");
        return storage.create("/configmaps/default/" + name, o);
    }

    private static long rv(ObjectNode obj) {
        return Long.parseLong(obj.path("metadata").path("resourceVersion").asText());
    }
}
