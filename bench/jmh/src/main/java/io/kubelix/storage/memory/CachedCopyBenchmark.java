package io.kubelix.storage.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The memory backend's update and delete of a 1-KiB ConfigMap, started from the stored bytes
 * (decoded) or from a copy of the object as the watch cache hands it over (copied by the Cacher,
 * counted here too). The delete variants create the object first, so they measure create + delete.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CachedCopyBenchmark {
    private static final String KEY = "/configmaps/bench/a";
    private static final String OBJECT = """
            {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"bench",
            "uid":"0b6ad4a8-3a77-4f5e-9f1e-6c2f5d9c8e11","creationTimestamp":"2026-11-28T09:00:00Z",
            "managedFields":[{"manager":"kubelix-bench","operation":"Update","apiVersion":"v1",
            "time":"2026-11-28T09:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:payload":{}}}}]},
            "data":{"payload":"%s"}}""".formatted("x".repeat(1024));

    private MemoryStorageBackend backend;
    private StorageInterface storage;
    private ObjectNode template;
    private ObjectNode current;
    private long n;

    @Setup
    public void setUp() throws Exception {
        backend = new MemoryStorageBackend(10_000, 10_000, Duration.ofSeconds(60));
        storage = backend.forResource(new StorageConfig(GroupResource.of("", "configmaps"), "/configmaps"));
        template = (ObjectNode) new ObjectMapper().readTree(OBJECT);
        current = storage.create(KEY, template.deepCopy());
    }

    @TearDown
    public void tearDown() {
        backend.deactivate();
    }

    @Benchmark
    public ObjectNode updateFromStoredBytes() {
        current = storage.guaranteedUpdate(KEY, false, Preconditions.NONE, (obj, rev) -> changed(obj), null);
        return current;
    }

    @Benchmark
    public ObjectNode updateFromCachedCopy() {
        current = storage.guaranteedUpdate(KEY, false, Preconditions.NONE, (obj, rev) -> changed(obj),
                current.deepCopy());
        return current;
    }

    @Benchmark
    public ObjectNode createAndDeleteFromStoredBytes() {
        storage.create("/configmaps/bench/b", template.deepCopy());
        return storage.delete("/configmaps/bench/b", Preconditions.NONE, obj -> { }, null);
    }

    @Benchmark
    public ObjectNode createAndDeleteFromCachedCopy() {
        ObjectNode created = storage.create("/configmaps/bench/b", template.deepCopy());
        return storage.delete("/configmaps/bench/b", Preconditions.NONE, obj -> { }, created.deepCopy());
    }

    /** The same object with another payload of the same length, as the writes scenario's updates. */
    private ObjectNode changed(ObjectNode obj) {
        ((ObjectNode) obj.get("data")).put("payload", String.format("%08d", n++) + "x".repeat(1016));
        return obj;
    }
}
