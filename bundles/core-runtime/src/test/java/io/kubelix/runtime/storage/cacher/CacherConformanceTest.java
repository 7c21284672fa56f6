package io.kubelix.runtime.storage.cacher;

import io.kubelix.api.storage.StorageBackend;
import io.kubelix.storage.memory.MemoryStorageBackend;
import io.kubelix.storage.testing.StorageConformanceTest;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;

/** The storage conformance suite through the Cacher: the watch cache must keep every promise of storage.Interface. */
class CacherConformanceTest extends StorageConformanceTest {
    static final CacherOptions OPTIONS = new CacherOptions(1000, 1000, Duration.ofMillis(50), Duration.ofMillis(200),
            Duration.ofSeconds(3));

    private final Map<StorageBackend, MemoryStorageBackend> memories = new IdentityHashMap<>();
    private final java.util.List<Cacher> cachers = new java.util.ArrayList<>();

    @Override
    protected StorageBackend newBackend() {
        MemoryStorageBackend memory = MemoryBackends.newBackend();
        StorageBackend cached = config -> {
            Cacher c = new Cacher(memory.forResource(config), config.groupResource(), config.resourcePrefix(), OPTIONS);
            cachers.add(c);
            return c;
        };
        memories.put(cached, memory);
        return cached;
    }

    @Override
    protected void closeBackend(StorageBackend backend) {
        cachers.forEach(Cacher::stop);
        cachers.clear();
        MemoryBackends.close(memories.remove(backend));
    }

    @Override
    protected Duration progressNotifyTimeout() {
        return Duration.ofSeconds(5);
    }
}
