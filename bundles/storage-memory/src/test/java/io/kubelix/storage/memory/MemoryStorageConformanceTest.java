package io.kubelix.storage.memory;

import io.kubelix.api.storage.StorageBackend;
import io.kubelix.storage.testing.StorageConformanceTest;

import java.time.Duration;

/** The whole storage.Interface conformance suite against the memory backend. */
class MemoryStorageConformanceTest extends StorageConformanceTest {

    @Override
    protected StorageBackend newBackend() {
        return new MemoryStorageBackend(10_000, 10_000, Duration.ofMillis(200));
    }

    @Override
    protected void closeBackend(StorageBackend backend) {
        ((MemoryStorageBackend) backend).deactivate();
    }

    @Override
    protected void compact(StorageBackend backend, long revision) {
        ((MemoryStorageBackend) backend).compact(revision);
    }
}
