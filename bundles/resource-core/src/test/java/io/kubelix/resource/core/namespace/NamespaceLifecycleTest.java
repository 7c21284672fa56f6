package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NamespaceLifecycleTest {
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final GroupVersionResource CLUSTERROLES =
            new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles");

    /** Namespaces by name; the "cache" may lag behind "storage". */
    static final class FakeLister implements NamespaceLister {
        final java.util.Map<String, ObjectNode> storage = new java.util.HashMap<>();
        final java.util.Map<String, ObjectNode> cache = new java.util.HashMap<>();
        final List<String> lookups = new ArrayList<>();

        void put(String name, String phase) {
            ObjectNode ns = obj("{'metadata':{'name':'" + name + "'},'status':{'phase':'" + phase + "'}}");
            storage.put(name, ns);
            cache.put(name, ns);
        }

        @Override
        public Optional<ObjectNode> get(String name, boolean live) {
            lookups.add(name + (live ? "@live" : "@cache"));
            return Optional.ofNullable((live ? storage : cache).get(name));
        }
    }

    private final AtomicLong clock = new AtomicLong();
    private final FakeLister lister = new FakeLister();
    private final NamespaceLifecycle plugin = new NamespaceLifecycle(lister, clock::get);

    @BeforeEach
    void namespaces() {
        lister.put("team", "Active");
        lister.put("leaving", "Terminating");
    }

    private static AdmissionAttributes attrs(Operation op, GroupVersionResource gvr, String namespace, String name) {
        ObjectNode object = op == Operation.DELETE ? null : obj("{'metadata':{'name':'" + name + "'}}");
        return new AdmissionAttributes(op, new GroupVersionKind(gvr.group(), gvr.version(), "Kind"), gvr, "",
                namespace, name, object, null, false, RequestContext.system(namespace));
    }

    @Test
    void isNamedAsKubeNamesIt() {
        assertEquals("NamespaceLifecycle", plugin.name());
        assertFalse(plugin.handles(Operation.CONNECT));
        assertTrue(plugin.handles(Operation.CREATE));
    }

    @Test
    void createInAnActiveNamespaceIsAllowed() {
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.CREATE, CONFIGMAPS, "team", "c")));
        assertEquals(List.of("team@cache"), lister.lookups);
    }

    @Test
    void createInAMissingNamespaceIs404ForTheNamespace() {
        StatusException e = assertThrows(StatusException.class,
                () -> plugin.validate(attrs(Operation.CREATE, CONFIGMAPS, "nope", "c")));
        assertEquals(StatusReason.NOT_FOUND, e.reason());
        assertEquals(404, e.code());
        assertEquals("namespaces \"nope\" not found", e.getMessage());
        assertEquals("namespaces", e.details().kind());
        assertEquals("nope", e.details().name());
        // a cache miss is confirmed against storage before answering 404
        assertEquals(List.of("nope@cache", "nope@live"), lister.lookups);
    }

    @Test
    void theChecksRunInTheMutatingPhaseSoNothingElseSeesAWriteIntoAMissingNamespace() {
        StatusException e = assertThrows(StatusException.class,
                () -> plugin.admit(attrs(Operation.CREATE, CONFIGMAPS, "nope", "c")));
        assertEquals("namespaces \"nope\" not found", e.getMessage());
        assertEquals(403, assertThrows(StatusException.class,
                () -> plugin.admit(attrs(Operation.CREATE, CONFIGMAPS, "leaving", "c"))).code());
    }

    @Test
    void aNamespaceMissingFromTheCacheIsFoundInStorage() {
        lister.storage.put("new", obj("{'metadata':{'name':'new'},'status':{'phase':'Active'}}"));
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.CREATE, CONFIGMAPS, "new", "c")));
    }

    @Test
    void updateInAMissingNamespaceIs404Too() {
        StatusException e = assertThrows(StatusException.class,
                () -> plugin.validate(attrs(Operation.UPDATE, CONFIGMAPS, "nope", "c")));
        assertEquals(404, e.code());
    }

    @Test
    void createInATerminatingNamespaceIsForbidden() {
        StatusException e = assertThrows(StatusException.class,
                () -> plugin.validate(attrs(Operation.CREATE, CONFIGMAPS, "leaving", "c")));
        assertEquals(StatusReason.FORBIDDEN, e.reason());
        assertEquals(403, e.code());
        assertEquals("configmaps \"c\" is forbidden: unable to create new content in namespace leaving "
                + "because it is being terminated", e.getMessage());
        assertEquals(List.of(new StatusCause("NamespaceTerminating", "namespace leaving is being terminated",
                "metadata.namespace")), e.details().causes());
        // updates and deletes in a terminating namespace go through
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.UPDATE, CONFIGMAPS, "leaving", "c")));
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.DELETE, CONFIGMAPS, "leaving", "c")));
    }

    @Test
    void immortalNamespacesCannotBeDeleted() {
        for (String name : List.of("default", "kube-system", "kube-public")) {
            StatusException e = assertThrows(StatusException.class,
                    () -> plugin.validate(attrs(Operation.DELETE, NAMESPACES, "", name)));
            assertEquals(403, e.code());
            assertEquals("namespaces \"" + name + "\" is forbidden: this namespace may not be deleted", e.getMessage());
        }
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.DELETE, NAMESPACES, "", "kube-node-lease")));
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.DELETE, NAMESPACES, "", "team")));
    }

    @Test
    void clusterScopedResourcesAndNamespacesThemselvesAreNotChecked() {
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.CREATE, CLUSTERROLES, "", "r")));
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.CREATE, NAMESPACES, "", "brand-new")));
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.DELETE, CONFIGMAPS, "nope", "c")));
    }

    @Test
    void whileTheNamespaceStorageIsNotBuiltNamespacedWritesGet503() {
        NamespaceLifecycle notReady = new NamespaceLifecycle((name, live) -> {
            throw StatusException.serviceUnavailable("namespace storage is not available yet");
        }, clock::get);
        StatusException e = assertThrows(StatusException.class,
                () -> notReady.validate(attrs(Operation.CREATE, CONFIGMAPS, "team", "c")));
        assertEquals(StatusReason.SERVICE_UNAVAILABLE, e.reason());
        assertEquals(503, e.code());
        assertDoesNotThrow(() -> notReady.validate(attrs(Operation.CREATE, CLUSTERROLES, "", "r")));
    }

    @Test
    void aRecentlyDeletedNamespaceIsReadFromStorage() {
        plugin.validate(attrs(Operation.DELETE, NAMESPACES, "", "team"));
        lister.storage.remove("team"); // deleted; the cache still has it
        lister.lookups.clear();
        StatusException e = assertThrows(StatusException.class,
                () -> plugin.validate(attrs(Operation.CREATE, CONFIGMAPS, "team", "c")));
        assertEquals(404, e.code());
        assertEquals(List.of("team@live"), lister.lookups);

        clock.addAndGet(NamespaceLifecycle.FORCE_LIVE_LOOKUP_NANOS + 1);
        lister.lookups.clear();
        assertDoesNotThrow(() -> plugin.validate(attrs(Operation.CREATE, CONFIGMAPS, "team", "c")));
        assertEquals(List.of("team@cache"), lister.lookups);
    }
}
