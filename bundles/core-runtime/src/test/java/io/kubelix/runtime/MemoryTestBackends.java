package io.kubelix.runtime;

import io.kubelix.storage.memory.MemoryStorageBackend;
import io.kubelix.storage.memory.MemoryStorageConfig;
import org.osgi.framework.BundleContext;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/** Real storage-memory backends for core-runtime's tests, started and stopped as Declarative Services would. */
public final class MemoryTestBackends {

    private MemoryTestBackends() {
    }

    /**
     * A backend keeping the last {@code history} revisions for watches, with watch queues of
     * {@code queueSize} events and progress notifications every {@code progressMillis}.
     */
    public static MemoryStorageBackend newBackend(int history, int queueSize, long progressMillis) {
        return newBackend(history, queueSize, progressMillis, null);
    }

    /**
     * A backend as {@link #newBackend(int, int, long)} makes one, that hands its objects over to the
     * next backend of the same {@code bundle} (whose data area holds them) when it stops.
     */
    public static MemoryStorageBackend newBackend(int history, int queueSize, long progressMillis, BundleContext bundle) {
        return new MemoryStorageBackend(new MemoryStorageConfig() {
            @Override
            public int event$_$history$_$size() {
                return history;
            }

            @Override
            public int watch$_$queue$_$size() {
                return queueSize;
            }

            @Override
            public long progress$_$notify$_$interval$_$ms() {
                return progressMillis;
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return MemoryStorageConfig.class;
            }
        }, bundle);
    }

    /** Stops {@code backend} (its deactivate method), as Declarative Services would. */
    public static void close(MemoryStorageBackend backend) {
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
