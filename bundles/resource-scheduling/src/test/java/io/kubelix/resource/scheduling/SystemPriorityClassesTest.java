package io.kubelix.resource.scheduling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.storage.ListResult;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SystemPriorityClassesTest {

    /** Priority classes by name, with create and list as the generic Store answers them. */
    private static final class Classes {
        final Map<String, ObjectNode> stored = new TreeMap<>();
        boolean unavailable;

        StandardStorage store() {
            return (StandardStorage) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {StandardStorage.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "create" -> create((ObjectNode) args[1]);
                        case "list" -> new ListResult(new ArrayList<>(stored.values()), 1, null, null);
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        private ObjectNode create(ObjectNode pc) {
            if (unavailable) {
                throw StatusException.serviceUnavailable("storage is unreachable");
            }
            String name = pc.path("metadata").path("name").asText();
            if (stored.containsKey(name)) {
                throw StatusException.alreadyExists(SchedulingRESTStorageProvider.PRIORITY_CLASSES, name);
            }
            stored.put(name, pc);
            return pc;
        }
    }

    @Test
    void createsBothSystemClassesOnceStorageAnswersAndLeavesExistingOnes() {
        Classes classes = new Classes();
        SystemPriorityClasses system = new SystemPriorityClasses(classes.store());
        classes.unavailable = true;
        assertFalse(system.ensure(), "storage is not there yet");
        classes.unavailable = false;
        assertTrue(system.ensure());
        assertEquals(List.of("system-cluster-critical", "system-node-critical"), List.copyOf(classes.stored.keySet()));

        classes.stored.get("system-node-critical").put("description", "changed by a user");
        assertTrue(system.ensure(), "AlreadyExists counts as done");
        assertEquals("changed by a user", classes.stored.get("system-node-critical").path("description").asText());
    }

    @Test
    void theHookWaitsForTheStoreThenFailsUntilBothClassesExist() throws Exception {
        Classes classes = new Classes();
        SchedulingRESTStorageProvider provider = new SchedulingRESTStorageProvider();
        assertEquals("scheduling/bootstrap-system-priority-classes", provider.name());
        CompletableFuture<Void> hook = CompletableFuture.runAsync(() -> {
            try {
                provider.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertFalse(hook.isDone(), "the hook waits for the Store");
        provider.newRESTStorage((RESTOptionsGetter) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RESTOptionsGetter.class}, (proxy, method, args) -> classes.store()));
        hook.get(20, TimeUnit.SECONDS);
        assertEquals(List.of("system-cluster-critical", "system-node-critical"), List.copyOf(classes.stored.keySet()));

        classes.stored.clear();
        classes.unavailable = true;
        assertThrows(IllegalStateException.class, provider::run, "run again later while storage is unreachable");
    }
}
