package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListResult;
import io.kubelix.runtime.codec.Codecs;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Encoding a LIST of N ConfigMaps of about 1 KiB, and one watch event's object:
 * <ul>
 *   <li>{@code encodedList}: what a LIST from the watch cache does now, concatenating the items'
 *       cached encodings ({@link StreamingList}, copied into one array);</li>
 *   <li>{@code treeList}: what it did before, and what the slow path (YAML, uncached storage) still
 *       does: copy each object, set its apiVersion and kind, build the list tree and serialize it;</li>
 *   <li>{@code encodeObject}: serializing one object, the cost the cache pays once per event.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ListEncodingBenchmark {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Param({"5000"})
    public int items;

    private List<ObjectNode> objects;
    private ListResult cached;
    private ObjectNode listMeta;

    @Setup
    public void setUp() {
        objects = new ArrayList<>();
        List<Supplier<byte[]>> json = new ArrayList<>();
        String payload = "x".repeat(1000);
        for (int i = 0; i < items; i++) {
            ObjectNode o = F.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
            o.putObject("metadata").put("name", String.format("cm-%05d", i)).put("namespace", "bench")
                    .put("uid", "00000000-0000-0000-0000-" + String.format("%012d", i))
                    .put("creationTimestamp", "2026-01-01T00:00:00Z").put("resourceVersion", Integer.toString(i + 7));
            o.putObject("data").put("payload", payload);
            objects.add(o);
            byte[] b = Codecs.toJson(o);
            json.add(() -> b);
        }
        cached = new ListResult(objects, items + 7, null, null, json);
        listMeta = F.objectNode().put("resourceVersion", Integer.toString(items + 7));
    }

    @Benchmark
    public byte[] encodedList() {
        return StreamingList.of("ConfigMap", "v1", listMeta.deepCopy(), cached).toByteArray();
    }

    @Benchmark
    public byte[] treeList() {
        ObjectNode list = F.objectNode().put("kind", "ConfigMapList").put("apiVersion", "v1");
        list.set("metadata", listMeta.deepCopy());
        var array = list.putArray("items");
        for (ObjectNode o : objects) {
            array.add(typed(o.deepCopy()));
        }
        return Codecs.toJson(list);
    }

    @Benchmark
    public byte[] encodeObject() {
        return Codecs.toJson(objects.get(0));
    }

    private static ObjectNode typed(ObjectNode o) {
        return o.put("apiVersion", "v1").put("kind", "ConfigMap");
    }
}
