package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.ServedResources;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Equivalent resources are those sharing a storage prefix; objects convert through that storage. */
class EquivalentResourceRegistryTest {
    private static final GroupVersionResource WIDGETS_V1 = new GroupVersionResource("example.com", "v1", "widgets");
    private static final GroupVersionResource WIDGETS_V2 = new GroupVersionResource("example.com", "v2", "widgets");
    private static final GroupVersionResource GADGETS = new GroupVersionResource("example.com", "v1", "gadgets");

    /** v1 widgets keep {@code size} where the stored v2 shape has {@code spec.size}. */
    private static final StorageConversion V1_AS_V2 = new StorageConversion() {
        @Override
        public ObjectNode toStorage(ObjectNode obj) {
            ObjectNode stored = obj.deepCopy();
            stored.put("apiVersion", "example.com/v2");
            stored.putObject("spec").set("size", stored.remove("size"));
            return stored;
        }

        @Override
        public ObjectNode fromStorage(ObjectNode stored) {
            ObjectNode obj = stored.deepCopy();
            obj.put("apiVersion", "example.com/v1");
            obj.set("size", ((ObjectNode) obj.remove("spec")).get("size"));
            return obj;
        }
    };

    private final Served served = new Served();

    private static GenericStore store(String resource, String kind, String prefix, StorageConversion conversion) {
        StoreSpec.Builder spec = StoreSpec.builder(GroupResource.of("example.com", resource), kind)
                .createStrategy((ctx, o) -> List.of()).updateStrategy((ctx, o, old) -> List.of());
        spec = conversion == null ? spec.resourcePrefix(prefix) : spec.storedAs(prefix, conversion);
        return new GenericStore(spec.build(), null, new AdmissionChain());
    }

    private EquivalentResourceRegistry registry() {
        GenericStore v2 = store("widgets", "Widget", "/example.com/widgets", null);
        served.put(WIDGETS_V1, store("widgets", "Widget", "/example.com/widgets", V1_AS_V2));
        served.put(WIDGETS_V2, v2);
        served.put(new GroupVersionResource("example.com", "v2", "widgets/status"), new StatusREST(v2));
        served.put(GADGETS, store("gadgets", "Gadget", "/example.com/gadgets", null));
        return new EquivalentResourceRegistry(served);
    }

    @Test
    void resourcesSharingAStoragePrefixAreEquivalent() {
        EquivalentResourceRegistry registry = registry();
        assertEquals(List.of(WIDGETS_V1, WIDGETS_V2), registry.equivalentResourcesFor(WIDGETS_V2, ""));
        assertEquals(List.of(GADGETS), registry.equivalentResourcesFor(GADGETS, ""));
        assertEquals(List.of(WIDGETS_V2), registry.equivalentResourcesFor(WIDGETS_V1, "status"),
                "only the versions serving the subresource");
        assertEquals(List.of(), registry.equivalentResourcesFor(new GroupVersionResource("", "v1", "pods"), ""));
        assertEquals(new GroupVersionKind("example.com", "v1", "Widget"), registry.kindFor(WIDGETS_V1, ""));
        assertEquals(new GroupVersionKind("example.com", "v2", "Widget"), registry.kindFor(WIDGETS_V2, "status"));
        assertNull(registry.kindFor(WIDGETS_V1, "status"));
    }

    @Test
    void theIndexFollowsWhatIsServed() {
        EquivalentResourceRegistry registry = registry();
        assertEquals(2, registry.equivalentResourcesFor(WIDGETS_V2, "").size());
        served.remove(WIDGETS_V1);
        assertEquals(List.of(WIDGETS_V2), registry.equivalentResourcesFor(WIDGETS_V2, ""));
    }

    @Test
    void objectsConvertThroughTheirStorage() {
        EquivalentResourceRegistry registry = registry();
        ObjectNode v1 = JsonNodeFactory.instance.objectNode().put("apiVersion", "example.com/v1").put("kind", "Widget")
                .put("size", 3);
        ObjectNode v2 = registry.convert(v1, WIDGETS_V1, WIDGETS_V2, "");
        assertEquals("example.com/v2", v2.path("apiVersion").asText());
        assertEquals(3, v2.path("spec").path("size").asInt());
        assertEquals(3, v1.path("size").asInt(), "the argument is left as it was");
        ObjectNode back = registry.convert(v2, WIDGETS_V2, WIDGETS_V1, "");
        assertEquals(v1, back);
        StatusException e = assertThrows(StatusException.class, () -> registry.convert(v1, WIDGETS_V1, GADGETS, ""));
        assertEquals(500, e.code());
    }

    /** Served resources held in a map, telling the registry of each change. */
    private static final class Served implements ServedResources {
        private final Map<GroupVersionResource, RESTStorage> storages = new LinkedHashMap<>();
        private final List<Runnable> listeners = new ArrayList<>();

        void put(GroupVersionResource r, RESTStorage s) {
            storages.put(r, s);
            listeners.forEach(Runnable::run);
        }

        void remove(GroupVersionResource r) {
            storages.remove(r);
            listeners.forEach(Runnable::run);
        }

        @Override
        public RESTStorage storage(GroupVersionResource resource) {
            return storages.get(resource);
        }

        @Override
        public List<GroupVersionResource> resources() {
            return storages.keySet().stream().filter(r -> !r.resource().contains("/")).toList();
        }

        @Override
        public Runnable onChange(Runnable listener) {
            listeners.add(listener);
            return () -> listeners.remove(listener);
        }
    }
}
