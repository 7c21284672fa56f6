package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.MemoryTestBackends;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A resource served in one shape and stored under another resource's prefix in that resource's shape
 * (events.k8s.io Events kept as core/v1 Events): both Stores see the same objects, each in its shape.
 */
class StorageConversionTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private static final GroupResource NOTES = GroupResource.of("", "notes");
    private static final GroupResource MEMOS = GroupResource.of("memos.example", "memos");

    /** A memo's {@code text} is stored as a note's {@code message}. */
    private static final StorageConversion MEMO_AS_NOTE = new StorageConversion() {
        @Override
        public ObjectNode toStorage(ObjectNode obj) {
            ObjectNode stored = obj.deepCopy();
            stored.put("apiVersion", "v1").put("kind", "Note");
            if (stored.has("text")) {
                stored.set("message", stored.remove("text"));
            }
            return stored;
        }

        @Override
        public ObjectNode fromStorage(ObjectNode stored) {
            ObjectNode obj = stored.deepCopy();
            obj.put("apiVersion", "memos.example/v1").put("kind", "Memo");
            if (obj.has("message")) {
                obj.set("text", obj.remove("message"));
            }
            return obj;
        }
    };

    private MemoryStorageBackend backend;
    private StandardStorage notes;
    private StandardStorage memos;

    @BeforeEach
    void setUp() {
        backend = MemoryTestBackends.newBackend(1000, 100, 60_000);
        Map<String, StorageInterface> byPrefix = new ConcurrentHashMap<>();
        StoreFactory factory = new StoreFactory((gr, prefix) -> byPrefix.computeIfAbsent(prefix,
                p -> backend.forResource(new StorageConfig(gr, p))), new AdmissionChain());
        notes = factory.newStore(StoreSpec.builder(NOTES, "Note").createStrategy((ctx, o) -> List.of())
                .updateStrategy((ctx, o, old) -> List.of()).build());
        memos = factory.newStore(StoreSpec.builder(MEMOS, "Memo").createStrategy((ctx, o) -> List.of())
                .updateStrategy((ctx, o, old) -> List.of()).storedAs("/notes", MEMO_AS_NOTE).build());
    }

    @AfterEach
    void tearDown() throws Exception {
        MemoryTestBackends.close(backend);
    }

    private static ObjectNode memo(String name, String text) {
        ObjectNode m = JsonNodeFactory.instance.objectNode().put("apiVersion", "memos.example/v1").put("kind", "Memo");
        m.putObject("metadata").put("name", name);
        return m.put("text", text);
    }

    @Test
    void eachStoreSeesTheOthersObjectsInItsOwnShape() {
        ObjectNode created = memos.create(CTX, memo("a", "hello"), CreateOptions.DEFAULT);
        assertEquals("hello", created.path("text").asText());

        ObjectNode asNote = notes.get(CTX, "a", "");
        assertEquals("hello", asNote.path("message").asText());
        assertFalse(asNote.has("text"));
        assertEquals(created.path("metadata").path("uid"), asNote.path("metadata").path("uid"));

        ObjectNode note = asNote.deepCopy().put("message", "changed by the note API");
        notes.update(CTX, "a", (ctx, old) -> note, UpdateOptions.DEFAULT);
        assertEquals("changed by the note API", memos.get(CTX, "a", "").path("text").asText());
    }

    @Test
    void updatesAndFieldSelectorsWorkOnTheServedShape() {
        memos.create(CTX, memo("a", "keep"), CreateOptions.DEFAULT);
        memos.create(CTX, memo("b", "drop"), CreateOptions.DEFAULT);
        memos.update(CTX, "b", (ctx, old) -> {
            assertEquals("drop", old.path("text").asText(), "the update function sees the served shape");
            return old.put("text", "dropped");
        }, UpdateOptions.DEFAULT);
        assertEquals("dropped", notes.get(CTX, "b", "").path("message").asText());

        SelectionPredicate textIsKeep = new SelectionPredicate() {
            @Override
            public boolean matches(ObjectNode obj) {
                return "keep".equals(obj.path("text").asText());
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }
        };
        List<ObjectNode> kept = memos.list(CTX, new ListOptions("", ResourceVersionMatch.UNSET, textIsKeep, true, 0,
                null, false)).items();
        assertEquals(List.of("a"), kept.stream().map(o -> o.path("metadata").path("name").asText()).toList());
        assertEquals("keep", kept.get(0).path("text").asText());
    }

    @Test
    void watchesDeliverTheServedShape() throws Exception {
        ObjectNode created = memos.create(CTX, memo("a", "one"), CreateOptions.DEFAULT);
        String rv = created.path("metadata").path("resourceVersion").asText();
        try (Watch w = memos.watch(CTX, ListOptions.recursiveAll().withResourceVersion(rv))) {
            ObjectNode note = notes.get(CTX, "a", "").put("message", "two");
            notes.update(CTX, "a", (ctx, old) -> note, UpdateOptions.DEFAULT);
            WatchEvent ev = w.next(Duration.ofSeconds(10));
            assertNotNull(ev);
            assertEquals(WatchEvent.Type.MODIFIED, ev.type());
            assertEquals("two", ev.object().path("text").asText());
            assertEquals("Memo", ev.object().path("kind").asText());
        }
    }
}
