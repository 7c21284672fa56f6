package io.kubelix.resource.core.testing;

import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.storage.memory.MemoryStorageBackend;
import io.kubelix.storage.memory.MemoryStorageConfig;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * A real storage-memory backend for the allocators' tests, started and stopped as Declarative
 * Services would, with the raw storage under {@code /ranges} that core-runtime hands out.
 */
public final class MemoryRanges implements AutoCloseable {
    final MemoryStorageBackend backend = new MemoryStorageBackend(new MemoryStorageConfig() {
        @Override
        public int event$_$history$_$size() {
            return 1000;
        }

        @Override
        public int watch$_$queue$_$size() {
            return 100;
        }

        @Override
        public long progress$_$notify$_$interval$_$ms() {
            return 60_000;
        }

        @Override
        public Class<? extends Annotation> annotationType() {
            return MemoryStorageConfig.class;
        }
    });

    /** The raw storage of {@code prefix}, as RESTOptionsGetter.storage hands it out. */
    public StorageInterface storage(String prefix) {
        return backend.forResource(new StorageConfig(GroupResource.of("", prefix), prefix));
    }

    @Override
    public void close() {
        try {
            Method deactivate = MemoryStorageBackend.class.getDeclaredMethod("deactivate");
            deactivate.setAccessible(true);
            deactivate.invoke(backend);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
