package io.kubelix.runtime.storage.cacher;

import io.kubelix.storage.memory.MemoryStorageBackend;
import io.kubelix.storage.memory.MemoryStorageConfig;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/** Real memory backends for Cacher tests, with quick progress notifications so the cache stays fresh. */
final class MemoryBackends {

    private MemoryBackends() {
    }

    static MemoryStorageBackend newBackend() {
        return newBackend(10_000);
    }

    /** A backend that keeps only the last {@code history} revisions for watches. */
    static MemoryStorageBackend newBackend(int history) {
        return new MemoryStorageBackend(new MemoryStorageConfig() {
            @Override
            public int event$_$history$_$size() {
                return history;
            }

            @Override
            public int watch$_$queue$_$size() {
                return 100_000;
            }

            @Override
            public long progress$_$notify$_$interval$_$ms() {
                return 100;
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return MemoryStorageConfig.class;
            }
        });
    }

    static void close(MemoryStorageBackend backend) {
        if (backend == null) {
            return;
        }
        try {
            Method deactivate = MemoryStorageBackend.class.getDeclaredMethod("deactivate");
            deactivate.setAccessible(true);
            deactivate.invoke(backend);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
