package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.object.ObjectMeta;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.DeleteResult;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTDeleteStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.runtime.MemoryTestBackends;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deletion (finalizers, propagation policies, graceful deletion), metadata.generation and the
 * status subresource of the generic Store, with kube-apiserver's store.go and rest/delete.go
 * behaviour and messages.
 */
class GenericStoreDeletionTest {
    private static final GroupResource WIDGETS = GroupResource.of("example.com", "widgets");
    private static final RequestContext NS = RequestContext.system("default");
    private static final String HOLD = "example.com/hold";

    private MemoryStorageBackend backend;
    private StorageInterface storage;
    private GenericStore store;

    @BeforeEach
    void setUp() {
        backend = MemoryTestBackends.newBackend(1000, 100, 60_000);
        storage = backend.forResource(new StorageConfig(WIDGETS, "/widgets"));
        store = newStore(new Strategy(), null, true);
    }

    @AfterEach
    void tearDown() throws Exception {
        MemoryTestBackends.close(backend);
    }

    // --- finalizers ---

    @Test
    void deleteOfAnObjectWithFinalizersOnlyMarksIt() {
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);
        Instant before = Instant.now().minusSeconds(1);

        DeleteResult r = store.delete(NS, "a", DeleteOptions.DEFAULT);

        assertFalse(r.immediate());
        ObjectMeta meta = meta(r.object());
        assertFalse(Instant.parse(meta.deletionTimestamp()).isBefore(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
        assertEquals(0, meta.node().path("deletionGracePeriodSeconds").asInt(-1));
        assertEquals(List.of(HOLD), meta.finalizers());
        assertEquals(r.object(), store.get(NS, "a", ""), "the marked object is what is stored");
    }

    /** A namespace-like resource: spec.finalizers of its own hold a deleted object, which is marked "Terminating". */
    @Test
    void finalizersOfTheResourcesOwnHoldADeletedObjectUntilAnUpdateEmptiesThem() {
        RESTDeleteStrategy specFinalizers = new RESTDeleteStrategy() {
            @Override
            public boolean hasPendingFinalizers(ObjectNode obj) {
                return !obj.path("spec").path("finalizers").isEmpty();
            }

            @Override
            public void prepareForDeletion(ObjectNode obj) {
                obj.putObject("status").put("phase", "Terminating");
            }
        };
        store = newStore(new Strategy(), specFinalizers, false);
        ObjectNode w = widget("a");
        w.putObject("spec").putArray("finalizers").add("kubernetes");
        store.create(NS, w, CreateOptions.DEFAULT);

        DeleteResult r = store.delete(NS, "a", DeleteOptions.DEFAULT);
        assertFalse(r.immediate());
        assertNotNull(meta(r.object()).deletionTimestamp());
        assertEquals("Terminating", store.get(NS, "a", "").path("status").path("phase").asText());

        ObjectNode emptied = store.get(NS, "a", "").deepCopy();
        ((ObjectNode) emptied.path("spec")).putArray("finalizers");
        store.update(NS, "a", (ctx, old) -> emptied, UpdateOptions.DEFAULT);
        assertEquals(404, assertThrows(StatusException.class, () -> store.get(NS, "a", "")).code(),
                "the update that empties the last finalizer deletes the object");
    }

    @Test
    void deletingAgainKeepsTheFirstDeletionTimestamp() {
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);
        ObjectNode first = store.delete(NS, "a", DeleteOptions.DEFAULT).object();

        DeleteResult again = store.delete(NS, "a", DeleteOptions.DEFAULT);

        assertFalse(again.immediate());
        assertEquals(meta(first).deletionTimestamp(), meta(again.object()).deletionTimestamp());
        assertEquals(meta(first).resourceVersion(), meta(store.get(NS, "a", "")).resourceVersion(),
                "nothing changed, nothing written");
    }

    @Test
    void updateRemovingTheLastFinalizerDeletesTheObjectAndAnswersIt() {
        store.create(NS, widget("a", HOLD, "example.com/other"), CreateOptions.DEFAULT);
        store.delete(NS, "a", DeleteOptions.DEFAULT);

        ObjectNode kept = store.update(NS, "a", (ctx, old) -> withFinalizers(old, "example.com/other"),
                UpdateOptions.DEFAULT).object();
        assertEquals(List.of("example.com/other"), meta(store.get(NS, "a", "")).finalizers(), "one finalizer left");
        assertTrue(meta(kept).deletionTimestamp() != null);

        ObjectNode last = store.update(NS, "a", (ctx, old) -> withFinalizers(old), UpdateOptions.DEFAULT).object();

        assertEquals("a", meta(last).name());
        assertTrue(meta(last).finalizers().isEmpty());
        assertTrue(meta(last).deletionTimestamp() != null, "the update answers the object as updated");
        assertEquals(404, assertThrows(StatusException.class, () -> store.get(NS, "a", "")).code());
    }

    @Test
    void dryRunUpdateRemovingTheLastFinalizerDeletesNothing() {
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);
        ObjectNode marked = store.delete(NS, "a", DeleteOptions.DEFAULT).object();

        store.update(NS, "a", (ctx, old) -> withFinalizers(old), new UpdateOptions(true, null));

        assertEquals(marked, store.get(NS, "a", ""));
    }

    @Test
    void removingFinalizersOfAnObjectNotBeingDeletedKeepsIt() {
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);

        store.update(NS, "a", (ctx, old) -> withFinalizers(old), UpdateOptions.DEFAULT);

        assertTrue(meta(store.get(NS, "a", "")).finalizers().isEmpty());
    }

    @Test
    void noNewFinalizersOnceDeletionHasBegun() {
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);
        store.delete(NS, "a", DeleteOptions.DEFAULT);

        StatusException e = assertThrows(StatusException.class, () -> store.update(NS, "a",
                (ctx, old) -> withFinalizers(old, HOLD, "example.com/late", "example.com/b"), UpdateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertEquals(StatusReason.INVALID, e.reason());
        assertEquals("Widget.example.com \"a\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be "
                + "added if the object is being deleted, found new finalizers []string{\"example.com/b\", "
                + "\"example.com/late\"}", e.getMessage());
        StatusCause cause = e.details().causes().get(0);
        assertEquals("FieldValueForbidden", cause.type());
        assertEquals("metadata.finalizers", cause.field());
    }

    @Test
    void deletionTimestampCannotBeSetByUpdate() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);

        StatusException e = assertThrows(StatusException.class, () -> store.update(NS, "a", (ctx, old) -> {
            ((ObjectNode) old.get("metadata")).put("deletionTimestamp", "2030-01-01T00:00:00Z");
            return old;
        }, UpdateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertEquals("metadata.deletionTimestamp", e.details().causes().get(0).field());
        assertTrue(e.getMessage().endsWith("metadata.deletionTimestamp: Invalid value: \"2030-01-01T00:00:00Z\": "
                + "field is immutable"), e.getMessage());
    }

    @Test
    void anUpdateKeepsTheDeletionTimestampAndGracePeriodWhateverItSends() {
        // rest.BeforeUpdate: "an update can never remove/change a deletion timestamp" nor remove the grace period.
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);
        ObjectNode marked = store.delete(NS, "a", DeleteOptions.DEFAULT).object();

        ObjectNode updated = store.update(NS, "a", (ctx, old) -> {
            ObjectNode m = (ObjectNode) old.get("metadata");
            m.remove("deletionTimestamp");
            m.remove("deletionGracePeriodSeconds");
            m.putObject("labels").put("x", "y");
            return old;
        }, UpdateOptions.DEFAULT).object();

        assertEquals(meta(marked).deletionTimestamp(), meta(updated).deletionTimestamp());
        assertEquals(0, meta(updated).node().path("deletionGracePeriodSeconds").asInt(-1));
        assertEquals("y", meta(updated).labels().get("x"));
    }

    @Test
    void createDropsDeletionFieldsAndValidatesFinalizers() {
        ObjectNode in = widget("a", HOLD);
        ((ObjectNode) in.get("metadata")).put("deletionTimestamp", "2030-01-01T00:00:00Z").put("deletionGracePeriodSeconds", 5);
        ObjectNode created = store.create(NS, in, CreateOptions.DEFAULT);
        assertNull(meta(created).deletionTimestamp());
        assertFalse(meta(created).node().has("deletionGracePeriodSeconds"));

        StatusException both = assertThrows(StatusException.class,
                () -> store.create(NS, widget("b", "orphan", "foregroundDeletion"), CreateOptions.DEFAULT));
        assertEquals(422, both.code());
        assertEquals("Widget.example.com \"b\" is invalid: metadata.finalizers: Invalid value: "
                + "[]string{\"orphan\", \"foregroundDeletion\"}: finalizer orphan and foregroundDeletion cannot be "
                + "both set", both.getMessage());

        StatusException bad = assertThrows(StatusException.class,
                () -> store.create(NS, widget("c", "not a name"), CreateOptions.DEFAULT));
        assertEquals("metadata.finalizers", bad.details().causes().get(0).field());
        assertTrue(bad.getMessage().contains("metadata.finalizers: Invalid value: \"not a name\": name part must "
                + "consist of alphanumeric characters"), bad.getMessage());
    }

    // --- propagation policy ---

    @Test
    void backgroundAndTheDefaultDeleteAtOnce() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);
        store.create(NS, widget("b"), CreateOptions.DEFAULT);

        assertTrue(store.delete(NS, "a", DeleteOptions.DEFAULT).immediate());
        assertTrue(store.delete(NS, "b", policy("Background")).immediate());

        assertTrue(list().isEmpty());
    }

    @Test
    void orphanAddsTheOrphanFinalizerAndKeepsTheObject() {
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);
        store.create(NS, widget("b"), CreateOptions.DEFAULT);

        DeleteResult a = store.delete(NS, "a", policy("Orphan"));
        DeleteResult b = store.delete(NS, "b", policy("Orphan"));

        assertFalse(a.immediate());
        assertEquals(List.of(HOLD, "orphan"), meta(a.object()).finalizers());
        // No garbage collector removes "orphan" yet: the object waits for a client to remove it.
        assertFalse(b.immediate());
        assertEquals(List.of("orphan"), meta(store.get(NS, "b", "")).finalizers());
        assertTrue(meta(store.get(NS, "b", "")).deletionTimestamp() != null);
    }

    @Test
    void foregroundAddsForegroundDeletion() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);

        DeleteResult r = store.delete(NS, "a", policy("Foreground"));

        assertFalse(r.immediate());
        assertEquals(List.of("foregroundDeletion"), meta(store.get(NS, "a", "")).finalizers());
    }

    @Test
    void legacyOrphanDependentsMapsToOrphanAndBackground() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);
        store.create(NS, widget("b"), CreateOptions.DEFAULT);

        DeleteResult a = store.delete(NS, "a", new DeleteOptions(false, null, null, null, true));
        DeleteResult b = store.delete(NS, "b", new DeleteOptions(false, null, null, null, false));

        assertEquals(List.of("orphan"), meta(a.object()).finalizers());
        assertTrue(b.immediate());
    }

    @Test
    void backgroundTakesAwayAnOrphanFinalizerSetByAnEarlierRequest() {
        // The object is not being deleted yet, so DeleteOptions may still change the GC finalizers.
        store.create(NS, widget("a", "orphan"), CreateOptions.DEFAULT);

        DeleteResult r = store.delete(NS, "a", policy("Background"));

        assertTrue(r.immediate());
        assertTrue(list().isEmpty());
    }

    @Test
    void policyOfAResourceThatIsNeverCollectedAddsNothing() {
        GenericStore unsupported = newStore(new Strategy(), new RESTDeleteStrategy() {
            @Override
            public GarbageCollectionPolicy defaultGarbageCollectionPolicy(RequestContext ctx) {
                return GarbageCollectionPolicy.UNSUPPORTED;
            }
        }, false);
        unsupported.create(NS, widget("a"), CreateOptions.DEFAULT);

        assertTrue(unsupported.delete(NS, "a", policy("Orphan")).immediate());
    }

    @Test
    void resourcesThatOrphanByDefaultGetTheOrphanFinalizerWithoutAPolicy() {
        GenericStore orphaning = newStore(new Strategy(), new RESTDeleteStrategy() {
            @Override
            public GarbageCollectionPolicy defaultGarbageCollectionPolicy(RequestContext ctx) {
                return GarbageCollectionPolicy.ORPHAN_DEPENDENTS;
            }
        }, false);
        orphaning.create(NS, widget("a"), CreateOptions.DEFAULT);

        assertEquals(List.of("orphan"), meta(orphaning.delete(NS, "a", DeleteOptions.DEFAULT).object()).finalizers());
    }

    @Test
    void unsupportedPolicyIsInvalidDeleteOptions() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);

        StatusException e = assertThrows(StatusException.class, () -> store.delete(NS, "a", policy("Bogus")));

        assertEquals(422, e.code());
        assertEquals("DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Bogus\": "
                + "supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"", e.getMessage());
        assertEquals("FieldValueNotSupported", e.details().causes().get(0).type());
        assertEquals("propagationPolicy", e.details().causes().get(0).field());
        assertEquals("meta.k8s.io", e.details().group());
        assertEquals(1, list().size(), "nothing deleted");
    }

    @Test
    void orphanDependentsWithAPolicyIsInvalid() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);

        StatusException e = assertThrows(StatusException.class,
                () -> store.delete(NS, "a", new DeleteOptions(false, null, null, "Orphan", true)));

        assertEquals("DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Orphan\": "
                + "orphanDependents and deletionPropagation cannot be both set", e.getMessage());
    }

    @Test
    void resourceVersionPreconditionIsConflictWithKubesMessage() {
        ObjectNode created = store.create(NS, widget("a"), CreateOptions.DEFAULT);
        String rv = meta(created).resourceVersion();

        StatusException e = assertThrows(StatusException.class,
                () -> store.delete(NS, "a", new DeleteOptions(false, null, new Preconditions(null, "1"), null)));

        assertEquals(409, e.code());
        assertEquals("Operation cannot be fulfilled on Widget.example.com \"a\": the ResourceVersion in the "
                + "precondition (1) does not match the ResourceVersion in record (" + rv + "). The object might have "
                + "been modified", e.getMessage());
        assertTrue(store.delete(NS, "a", new DeleteOptions(false, null, new Preconditions(null, rv), null)).immediate());
    }

    @Test
    void dryRunDeleteOfAnObjectWithFinalizersChangesNothing() {
        ObjectNode created = store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);

        DeleteResult r = store.delete(NS, "a", new DeleteOptions(true, null, null, "Orphan"));

        assertFalse(r.immediate());
        assertTrue(meta(r.object()).deletionTimestamp() != null, "the answer shows what would be stored");
        assertEquals(created, store.get(NS, "a", ""));
    }

    // --- grace periods ---

    @Test
    void gracePeriodIsIgnoredWithoutAGracefulStrategy() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);

        assertTrue(store.delete(NS, "a", new DeleteOptions(false, 30L, null, null)).immediate());
        assertTrue(list().isEmpty());
    }

    @Test
    void aGracefulStrategyKeepsTheObjectUntilAZeroGracePeriod() {
        GenericStore graceful = newStore(new Strategy(), new RESTDeleteStrategy() {
            @Override
            public Long checkGracefulDelete(RequestContext ctx, ObjectNode obj, DeleteOptions options) {
                return options.gracePeriodSeconds() != null ? options.gracePeriodSeconds() : 30L;
            }
        }, true);
        graceful.create(NS, widget("a"), CreateOptions.DEFAULT);
        Instant now = Instant.now();

        DeleteResult first = graceful.delete(NS, "a", DeleteOptions.DEFAULT);

        assertFalse(first.immediate());
        ObjectMeta meta = meta(graceful.get(NS, "a", ""));
        assertEquals(30, meta.node().path("deletionGracePeriodSeconds").asInt());
        assertTrue(Instant.parse(meta.deletionTimestamp()).isAfter(now.plusSeconds(25)));
        assertEquals(2, meta.generation(), "the first graceful delete bumps the generation");

        assertFalse(graceful.delete(NS, "a", new DeleteOptions(false, 60L, null, null)).immediate(),
                "a longer period changes nothing");
        assertEquals(30, meta(graceful.get(NS, "a", "")).node().path("deletionGracePeriodSeconds").asInt());

        assertTrue(graceful.delete(NS, "a", new DeleteOptions(false, 0L, null, null)).immediate());
        assertEquals(404, assertThrows(StatusException.class, () -> graceful.get(NS, "a", "")).code());
    }

    // --- deletecollection ---

    @Test
    void deleteCollectionHonoursFinalizersPerItem() {
        store.create(NS, widget("held", HOLD), CreateOptions.DEFAULT);
        store.create(NS, widget("free"), CreateOptions.DEFAULT);

        List<ObjectNode> listed = store.deleteCollection(NS, DeleteOptions.DEFAULT, all()).items();

        assertEquals(2, listed.size(), "the answer is the list as it was read");
        List<ObjectNode> left = list();
        assertEquals(1, left.size());
        assertEquals("held", meta(left.get(0)).name());
        assertTrue(meta(left.get(0)).deletionTimestamp() != null);
    }

    // --- generation ---

    @Test
    void generationIsOneOnCreateAndBumpedOnlyBySpecChanges() {
        ObjectNode created = store.create(NS, widget("a"), CreateOptions.DEFAULT);
        assertEquals(1, meta(created).generation());

        ObjectNode labelled = store.update(NS, "a", (ctx, old) -> {
            ((ObjectNode) old.get("metadata")).putObject("labels").put("app", "x");
            return old;
        }, UpdateOptions.DEFAULT).object();
        assertEquals(1, meta(labelled).generation(), "a metadata change is no spec change");

        ObjectNode statusOnly = store.update(NS, "a", (ctx, old) -> {
            old.putObject("status").put("ready", true);
            return old;
        }, UpdateOptions.DEFAULT).object();
        assertEquals(1, meta(statusOnly).generation(), "the main resource keeps its status and generation");

        ObjectNode changed = store.update(NS, "a", (ctx, old) -> {
            ((ObjectNode) old.get("spec")).put("size", 2);
            return old;
        }, UpdateOptions.DEFAULT).object();
        assertEquals(2, meta(changed).generation());
    }

    @Test
    void resourcesWithoutGenerationLeaveItUnset() {
        GenericStore plain = newStore(new Strategy(), null, false);

        ObjectNode created = plain.create(NS, widget("a"), CreateOptions.DEFAULT);
        ObjectNode changed = plain.update(NS, "a", (ctx, old) -> {
            ((ObjectNode) old.get("spec")).put("size", 2);
            return old;
        }, UpdateOptions.DEFAULT).object();

        assertFalse(meta(created).node().has("generation"));
        assertFalse(meta(changed).node().has("generation"));
    }

    @Test
    void markingForDeletionBumpsTheGenerationOnce() {
        store.create(NS, widget("a", HOLD), CreateOptions.DEFAULT);

        store.delete(NS, "a", DeleteOptions.DEFAULT);
        store.delete(NS, "a", DeleteOptions.DEFAULT);

        assertEquals(2, meta(store.get(NS, "a", "")).generation());
    }

    // --- status subresource ---

    @Test
    void statusSubresourceChangesOnlyTheStatus() {
        store.create(NS, widget("a"), CreateOptions.DEFAULT);
        StatusREST status = new StatusREST(store.withUpdateStrategy(new StatusStrategy()));

        ObjectNode updated = status.update(NS, "a", (ctx, old) -> {
            ObjectNode next = old.deepCopy();
            next.putObject("status").put("ready", true);
            ((ObjectNode) next.get("spec")).put("size", 99);
            ((ObjectNode) next.get("metadata")).putObject("labels").put("sneaky", "yes");
            return next;
        }, UpdateOptions.DEFAULT).object();

        assertTrue(updated.path("status").path("ready").asBoolean());
        assertEquals(1, updated.path("spec").path("size").asInt(), "spec comes from the stored object");
        assertTrue(meta(updated).labels().isEmpty(), "metadata comes from the stored object");
        assertEquals(1, meta(updated).generation(), "a status update is no spec change");
        assertEquals(updated, store.get(NS, "a", ""));
        assertEquals(updated, status.get(NS, "a", ""));
    }

    @Test
    void statusSubresourceChecksTheResourceVersion() {
        ObjectNode created = store.create(NS, widget("a"), CreateOptions.DEFAULT);
        StatusREST status = new StatusREST(store.withUpdateStrategy(new StatusStrategy()));
        store.update(NS, "a", (ctx, old) -> {
            ((ObjectNode) old.get("spec")).put("size", 2);
            return old;
        }, UpdateOptions.DEFAULT);

        StatusException e = assertThrows(StatusException.class, () -> status.update(NS, "a", (ctx, old) -> {
            ObjectNode stale = created.deepCopy();
            stale.putObject("status").put("ready", true);
            return stale;
        }, UpdateOptions.DEFAULT));

        assertEquals(409, e.code());
    }

    @Test
    void statusSubresourceNeverCreates() {
        StatusREST status = new StatusREST(store.withUpdateStrategy(new StatusStrategy()));

        assertEquals(404, assertThrows(StatusException.class,
                () -> status.update(NS, "a", (ctx, old) -> widget("a"), UpdateOptions.DEFAULT)).code());
    }

    // --- helpers ---

    private GenericStore newStore(Strategy s, RESTDeleteStrategy delete, boolean generation) {
        StoreSpec.Builder b = StoreSpec.builder(WIDGETS, "Widget").strategy(s).generation(generation);
        if (delete != null) {
            b.deleteStrategy(delete);
        }
        return new GenericStore(b.build(), storage, new AdmissionChain());
    }

    private List<ObjectNode> list() {
        return store.list(RequestContext.system(""), all()).items();
    }

    private static ListOptions all() {
        return new ListOptions("", null, null, true, 0, null, false);
    }

    private static DeleteOptions policy(String p) {
        return new DeleteOptions(false, null, null, p);
    }

    private static ObjectMeta meta(ObjectNode o) {
        return Unstructured.wrap(o).metadata();
    }

    private static ObjectNode withFinalizers(ObjectNode o, String... finalizers) {
        ObjectNode m = (ObjectNode) o.get("metadata");
        if (finalizers.length == 0) {
            m.remove("finalizers");
        } else {
            var list = m.putArray("finalizers");
            for (String f : finalizers) {
                list.add(f);
            }
        }
        return o;
    }

    static ObjectNode widget(String name, String... finalizers) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "example.com/v1");
        o.put("kind", "Widget");
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (finalizers.length > 0) {
            var list = meta.putArray("finalizers");
            for (String f : finalizers) {
                list.add(f);
            }
        }
        o.putObject("spec").put("size", 1);
        return o;
    }

    /** A resource with a spec and a status: the main resource keeps the stored status. */
    private static class Strategy implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
            obj.remove("status");
        }

        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            StatusStrategies.resetStatus(obj, old);
        }

        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return List.of();
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return List.of();
        }
    }

    private static final class StatusStrategy implements RESTUpdateStrategy {
        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            StatusStrategies.keepOnlyStatus(obj, old);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return List.of();
        }
    }

}
