package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.registry.AdmissionChain;
import io.kubelix.runtime.registry.StoreFactory;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Watchers indexed by a field a resource declares (kube's indexed trigger), with a fake "pods"
 * resource indexing {@code spec.nodeName}: an event reaches the watchers of its object's old and new
 * node, and those without a node selector, never the others.
 */
class IndexedTriggerTest {
    private static final GroupResource PODS = GroupResource.of("", "pods");
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Function<ObjectNode, String> NODE = o -> o.path("spec").path("nodeName").asText("");

    private MemoryStorageBackend memory;
    private Cacher cacher;

    @BeforeEach
    void setUp() throws InterruptedException {
        memory = MemoryBackends.newBackend();
        cacher = MemoryBackends.readyCacher(memory.forResource(new StorageConfig(PODS, "/pods")), "/pods",
                CacherOptions.DEFAULT);
    }

    @AfterEach
    void tearDown() {
        cacher.stop();
        MemoryBackends.close(memory);
    }

    @Test
    void aResourceDeclaresItsIndexedFieldInItsStoreSpec() {
        StoreSpec.Builder pods = StoreSpec.builder(PODS, "Pod").createStrategy((ctx, o) -> List.of())
                .updateStrategy((ctx, o, old) -> List.of()).selectableField("spec.nodeName", NODE);

        new StoreFactory((gr, prefix) -> cacher, new AdmissionChain()).newStore(pods.indexedField("spec.nodeName").build());

        assertEquals("spec.nodeName", cacher.indexedField());
        assertThrows(IllegalArgumentException.class, () -> StoreSpec.builder(PODS, "Pod")
                .createStrategy((ctx, o) -> List.of()).updateStrategy((ctx, o, old) -> List.of())
                .indexedField("spec.nodeName").build(), "an indexed field must be selectable");
    }

    @Test
    void aDestroyedStoreTakesItsIndexAlongUnlessANewerStoreSetItsOwn() {
        StoreFactory factory = new StoreFactory((gr, prefix) -> cacher, new AdmissionChain());
        // Each revision of a plugin brings its own code to read the field.
        StandardStorage first = factory.newStore(pods(o -> o.path("spec").path("nodeName").asText()));
        StandardStorage second = factory.newStore(pods(o -> o.path("spec").path("nodeName").asText()));

        first.destroy();
        assertEquals("spec.nodeName", cacher.indexedField(), "the newer revision's index stays");

        second.destroy();
        assertNull(cacher.indexedField(), "the resource is gone: the cache keeps none of its code");
    }

    private static StoreSpec pods(Function<ObjectNode, String> nodeName) {
        return StoreSpec.builder(PODS, "Pod").createStrategy((ctx, o) -> List.of())
                .updateStrategy((ctx, o, old) -> List.of()).selectableField("spec.nodeName", nodeName)
                .indexedField("spec.nodeName").build();
    }

    @Test
    void anEventReachesOnlyTheWatchersOfItsOldAndNewValue() throws Exception {
        cacher.indexBy("spec.nodeName", NODE);
        long rv = put("p0", "");
        CountingNode n1 = new CountingNode("n1");
        CountingNode n2 = new CountingNode("n2");
        Watch w1 = cacher.watch("/pods", from(rv, n1));
        Watch w2 = cacher.watch("/pods", from(rv, n2));
        Watch all = cacher.watch("/pods/default", from(rv, SelectionPredicate.EVERYTHING));

        put("p1", "n1");
        assertEquals(WatchEvent.Type.ADDED, w1.next(WAIT).type());
        assertEquals(WatchEvent.Type.ADDED, all.next(WAIT).type());
        assertEquals(0, n2.evaluated.get(), "node n2's watcher was not even asked about a pod on n1");

        put("p1", "n2");
        assertEquals(WatchEvent.Type.DELETED, w1.next(WAIT).type(), "the pod left n1");
        assertEquals(WatchEvent.Type.ADDED, w2.next(WAIT).type(), "and came to n2");
        assertEquals(WatchEvent.Type.MODIFIED, all.next(WAIT).type());

        int n1Before = n1.evaluated.get();
        int n2Before = n2.evaluated.get();
        put("p2", "n3");
        assertEquals("p2", all.next(WAIT).object().path("metadata").path("name").asText());
        assertEquals(n1Before, n1.evaluated.get());
        assertEquals(n2Before, n2.evaluated.get());
        assertNull(w1.poll());
        assertNull(w2.poll());
        for (Watch w : List.of(w1, w2, all)) {
            w.close();
        }
        assertEquals(0, cacher.stats().watchers(), "closed watchers leave the index");
    }

    @Test
    void watchersOfAFieldNoLongerIndexedStillGetTheirEvents() throws Exception {
        cacher.indexBy("spec.nodeName", NODE);
        long rv = put("p0", "");
        CountingNode n1 = new CountingNode("n1");
        Watch w1 = cacher.watch("/pods", from(rv, n1));

        cacher.indexBy("metadata.name", o -> o.path("metadata").path("name").asText());
        put("p1", "n1");

        assertEquals(WatchEvent.Type.ADDED, w1.next(WAIT).type());
        w1.close();
    }

    private long put(String name, String node) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", "Pod");
        o.putObject("metadata").put("name", name).put("namespace", "default");
        o.putObject("spec").put("nodeName", node);
        ObjectNode stored = cacher.guaranteedUpdate("/pods/default/" + name, true, Preconditions.NONE, (cur, r) -> o);
        return Long.parseLong(stored.path("metadata").path("resourceVersion").asText());
    }

    private static ListOptions from(long rv, SelectionPredicate p) {
        return new ListOptions(Long.toString(rv), ResourceVersionMatch.UNSET, p, true, 0, null, false);
    }

    /** The field selector {@code spec.nodeName=<node>}, counting how often it is evaluated. */
    private static final class CountingNode implements SelectionPredicate {
        final AtomicInteger evaluated = new AtomicInteger();
        private final String node;

        CountingNode(String node) {
            this.node = node;
        }

        @Override
        public boolean matches(ObjectNode obj) {
            evaluated.incrementAndGet();
            return node.equals(NODE.apply(obj));
        }

        @Override
        public boolean matchesEverything() {
            return false;
        }

        @Override
        public String requiredFieldValue(String field) {
            return field.equals("spec.nodeName") ? node : null;
        }
    }
}
