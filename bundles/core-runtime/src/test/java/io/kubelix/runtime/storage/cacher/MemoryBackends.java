package io.kubelix.runtime.storage.cacher;

import io.kubelix.runtime.MemoryTestBackends;

import io.kubelix.storage.memory.MemoryStorageBackend;


/** Real memory backends for Cacher tests, with quick progress notifications so the cache stays fresh. */
final class MemoryBackends {

    private MemoryBackends() {
    }

    static MemoryStorageBackend newBackend() {
        return newBackend(10_000);
    }

    /** A backend that keeps only the last {@code history} revisions for watches. */
    static MemoryStorageBackend newBackend(int history) {
        return MemoryTestBackends.newBackend(history, 100_000, 100);
    }

    /** A Cacher over {@code storage} that has listed and is watching. */
    static Cacher readyCacher(io.kubelix.api.storage.StorageInterface storage, String prefix, CacherOptions options)
            throws InterruptedException {
        Cacher cacher = new Cacher(storage, io.kubelix.api.schema.GroupResource.of("", prefix.substring(1)), prefix, options);
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(5).toNanos();
        while (!cacher.ready() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (!cacher.ready()) {
            cacher.stop();
            throw new AssertionError("the cache did not list and start watching within 5 s");
        }
        return cacher;
    }

    static void close(MemoryStorageBackend backend) {
        MemoryTestBackends.close(backend);
    }
}
