package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** genericregistry.Store semantics over the real memory backend (store_test.go's cases). */
class GenericStoreTest {
    private static final GroupResource CONFIGMAPS = GroupResource.of("", "configmaps");
    private static final RequestContext DEFAULT = RequestContext.system("default");
    private static final String MODIFIED = "the object has been modified; please apply your changes to the latest "
            + "version and try again";

    private MemoryStorageBackend backend;
    private StorageInterface storage;
    private AdmissionChain admission;
    private TestStrategy strategy;
    private GenericStore store;

    @BeforeEach
    void setUp() {
        backend = MemoryTestBackends.newBackend(1000, 100, 60_000);
        storage = backend.forResource(new StorageConfig(CONFIGMAPS, "/configmaps"));
        admission = new AdmissionChain();
        strategy = new TestStrategy();
        store = newStore(strategy);
    }

    @AfterEach
    void tearDown() throws Exception {
        MemoryTestBackends.close(backend);
    }

    @Test
    void createSetsUidCreationTimestampAndResourceVersion() {
        Instant before = Instant.now().minusSeconds(1);

        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        Unstructured u = Unstructured.wrap(created);
        assertEquals("a", u.metadata().name());
        assertEquals("default", u.metadata().namespace(), "the request's namespace is set");
        assertEquals(u.metadata().uid(), UUID.fromString(u.metadata().uid()).toString());
        Instant ts = Instant.parse(u.metadata().creationTimestamp());
        assertFalse(ts.isBefore(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
        assertEquals(0, ts.getNano(), "creationTimestamp has second precision");
        assertTrue(Long.parseLong(u.metadata().resourceVersion()) > 0);
        assertEquals(created, store.get(DEFAULT, "a", ""));
    }

    @Test
    void createIgnoresAClientUidAndCreationTimestamp() {
        ObjectNode in = configMap("a");
        in.withObjectProperty("metadata").put("uid", "client-chosen").put("creationTimestamp", "2001-01-01T00:00:00Z");

        ObjectNode created = store.create(DEFAULT, in, CreateOptions.DEFAULT);

        assertNotEquals("client-chosen", Unstructured.wrap(created).metadata().uid());
        assertNotEquals("2001-01-01T00:00:00Z", Unstructured.wrap(created).metadata().creationTimestamp());
    }

    @Test
    void createDoesNotChangeTheCallersObject() {
        ObjectNode in = configMap("a");
        ObjectNode copy = in.deepCopy();

        store.create(DEFAULT, in, CreateOptions.DEFAULT);

        assertEquals(copy, in);
    }

    @Test
    void generateNameProducesAName() {
        ObjectNode in = configMap(null);
        in.withObjectProperty("metadata").put("generateName", "app-");

        ObjectNode first = store.create(DEFAULT, in, CreateOptions.DEFAULT);
        ObjectNode second = store.create(DEFAULT, in, CreateOptions.DEFAULT);

        String name = Unstructured.wrap(first).metadata().name();
        assertTrue(name.matches("app-[bcdfghjklmnpqrstvwxz2456789]{5}"), name);
        assertNotEquals(name, Unstructured.wrap(second).metadata().name());
        assertEquals("app-", Unstructured.wrap(first).metadata().generateName());
        assertEquals(first, store.get(DEFAULT, name, ""));
        assertEquals(2, list().size());
    }

    @Test
    void neitherNameNorGenerateNameIsInvalid() {
        StatusException e = assertThrows(StatusException.class,
                () -> store.create(DEFAULT, configMap(null), CreateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertEquals("metadata.name", e.details().causes().get(0).field());
        assertEquals("FieldValueRequired", e.details().causes().get(0).type());
    }

    @Test
    void resourceVersionOnCreateIsBadRequest() {
        ObjectNode in = configMap("a");
        in.withObjectProperty("metadata").put("resourceVersion", "5");

        StatusException e = assertThrows(StatusException.class, () -> store.create(DEFAULT, in, CreateOptions.DEFAULT));

        assertEquals(400, e.code());
        assertEquals(StatusReason.BAD_REQUEST, e.reason());
        assertEquals("resourceVersion should not be set on objects to be created", e.getMessage());
        assertTrue(list().isEmpty());
    }

    @Test
    void namespaceMismatchIsBadRequest() {
        ObjectNode in = configMap("a");
        in.withObjectProperty("metadata").put("namespace", "other");

        StatusException e = assertThrows(StatusException.class, () -> store.create(DEFAULT, in, CreateOptions.DEFAULT));

        assertEquals(400, e.code());
        assertEquals("the namespace of the provided object does not match the namespace sent on the request",
                e.getMessage());
        assertTrue(list().isEmpty());
    }

    @Test
    void matchingNamespaceInTheObjectIsAccepted() {
        ObjectNode in = configMap("a");
        in.withObjectProperty("metadata").put("namespace", "default");

        assertEquals("default", Unstructured.wrap(store.create(DEFAULT, in, CreateOptions.DEFAULT)).metadata().namespace());
    }

    @Test
    void invalidNameIsUnprocessableWithACauseOnMetadataName() {
        StatusException e = assertThrows(StatusException.class,
                () -> store.create(DEFAULT, configMap("Bad_Name"), CreateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertEquals(StatusReason.INVALID, e.reason());
        assertTrue(e.getMessage().startsWith("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: "
                + "\"Bad_Name\": a lowercase RFC 1123 subdomain must consist of"), e.getMessage());
        assertEquals("Bad_Name", e.details().name());
        assertEquals("ConfigMap", e.details().kind());
        StatusCause cause = e.details().causes().get(0);
        assertEquals("metadata.name", cause.field());
        assertEquals("FieldValueInvalid", cause.type());
        assertTrue(list().isEmpty());
    }

    @Test
    void strategyValidationErrorsAreUnprocessable() {
        strategy.errors = List.of(FieldError.invalid("data[k]", "v", "not allowed"));

        StatusException e = assertThrows(StatusException.class,
                () -> store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertEquals("ConfigMap \"a\" is invalid: data[k]: Invalid value: \"v\": not allowed", e.getMessage());
        assertTrue(list().isEmpty());
    }

    @Test
    void duplicateIsAlreadyExists() {
        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        StatusException e = assertThrows(StatusException.class,
                () -> store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT));

        assertEquals(409, e.code());
        assertEquals(StatusReason.ALREADY_EXISTS, e.reason());
        assertEquals("configmaps \"a\" already exists", e.getMessage());
        assertEquals("a", e.details().name());
        assertEquals("configmaps", e.details().kind());
    }

    @Test
    void sameNameInAnotherNamespaceIsNoDuplicate() {
        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        store.create(RequestContext.system("other"), configMap("a"), CreateOptions.DEFAULT);

        assertEquals(2, list().size());
        assertEquals(1, store.list(RequestContext.system("other"), all()).items().size());
    }

    @Test
    void getOfAMissingObjectIsNotFound() {
        StatusException e = assertThrows(StatusException.class, () -> store.get(DEFAULT, "nope", ""));

        assertEquals(404, e.code());
        assertEquals(StatusReason.NOT_FOUND, e.reason());
        assertEquals("configmaps \"nope\" not found", e.getMessage());
        assertEquals("nope", e.details().name());
        assertEquals("configmaps", e.details().kind());
    }

    @Test
    void emptyMetadataCollectionsAreNotStoredOnCreate() {
        ObjectNode in = configMap("a");
        ObjectNode meta = in.withObjectProperty("metadata");
        meta.putObject("labels");
        meta.putObject("annotations");
        meta.putArray("finalizers");
        meta.putArray("ownerReferences");
        meta.putNull("managedFields");

        ObjectNode created = store.create(DEFAULT, in, CreateOptions.DEFAULT);

        for (String field : List.of("labels", "annotations", "finalizers", "ownerReferences", "managedFields")) {
            assertFalse(created.path("metadata").has(field), field + " omitted: " + created);
        }
        assertEquals(created, store.get(DEFAULT, "a", ""));
    }

    @Test
    void removingTheLastLabelAndAnnotationRemovesTheMaps() {
        ObjectNode in = configMap("a");
        in.withObjectProperty("metadata").putObject("labels").put("app", "web");
        in.withObjectProperty("metadata").putObject("annotations").put("note", "hi");
        ObjectNode created = store.create(DEFAULT, in, CreateOptions.DEFAULT);
        ObjectNode changed = created.deepCopy();
        changed.withObjectProperty("metadata").withObjectProperty("labels").remove("app");
        changed.withObjectProperty("metadata").withObjectProperty("annotations").remove("note");

        UpdateResult r = store.update(DEFAULT, "a", (ctx, old) -> changed, UpdateOptions.DEFAULT);

        assertFalse(r.object().path("metadata").has("labels"), r.object()::toString);
        assertFalse(r.object().path("metadata").has("annotations"), r.object()::toString);
        assertEquals(r.object(), store.get(DEFAULT, "a", ""));
    }

    @Test
    void updateWithCurrentResourceVersion() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        ObjectNode changed = created.deepCopy();
        changed.withObjectProperty("data").put("k", "w");

        UpdateResult r = store.update(DEFAULT, "a", (ctx, old) -> changed, UpdateOptions.DEFAULT);

        assertFalse(r.created());
        assertEquals("w", r.object().path("data").path("k").asText());
        assertTrue(rv(r.object()) > rv(created));
        assertEquals(Unstructured.wrap(created).metadata().uid(), Unstructured.wrap(r.object()).metadata().uid());
        assertEquals(r.object(), store.get(DEFAULT, "a", ""));
    }

    @Test
    void updateWithStaleResourceVersionIsConflict() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        ObjectNode first = created.deepCopy();
        first.withObjectProperty("data").put("k", "first");
        store.update(DEFAULT, "a", (ctx, old) -> first, UpdateOptions.DEFAULT);
        ObjectNode stale = created.deepCopy();
        stale.withObjectProperty("data").put("k", "stale");

        StatusException e = assertThrows(StatusException.class,
                () -> store.update(DEFAULT, "a", (ctx, old) -> stale, UpdateOptions.DEFAULT));

        assertEquals(409, e.code());
        assertEquals(StatusReason.CONFLICT, e.reason());
        assertEquals("Operation cannot be fulfilled on configmaps \"a\": " + MODIFIED, e.getMessage());
        assertEquals("first", store.get(DEFAULT, "a", "").path("data").path("k").asText());
    }

    @Test
    void updateWithoutResourceVersionWhenTheStrategyAllowsUnconditionalUpdate() {
        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        ObjectNode blind = configMap("a");
        blind.withObjectProperty("data").put("k", "blind");

        UpdateResult r = store.update(DEFAULT, "a", (ctx, old) -> blind, UpdateOptions.DEFAULT);

        assertEquals("blind", store.get(DEFAULT, "a", "").path("data").path("k").asText());
        assertNotNull(Unstructured.wrap(r.object()).metadata().uid(), "the uid is kept from the stored object");
    }

    @Test
    void updateWithoutResourceVersionIsInvalidWhenTheStrategyForbidsUnconditionalUpdate() {
        strategy.unconditional = false;
        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        ObjectNode blind = configMap("a");
        blind.withObjectProperty("data").put("k", "blind");

        StatusException e = assertThrows(StatusException.class,
                () -> store.update(DEFAULT, "a", (ctx, old) -> blind, UpdateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertEquals("metadata.resourceVersion", e.details().causes().get(0).field());
        assertEquals("v", store.get(DEFAULT, "a", "").path("data").path("k").asText());
    }

    @Test
    void nameChangeOnUpdateIsBadRequest() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        ObjectNode renamed = created.deepCopy();
        renamed.withObjectProperty("metadata").put("name", "b");

        StatusException e = assertThrows(StatusException.class,
                () -> store.update(DEFAULT, "a", (ctx, old) -> renamed, UpdateOptions.DEFAULT));

        assertEquals(400, e.code());
        assertEquals("the name of the object (b) does not match the name on the URL (a)", e.getMessage());
        assertEquals(1, list().size());
    }

    @Test
    void uidChangeOnUpdateIsInvalid() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        ObjectNode changed = created.deepCopy();
        changed.withObjectProperty("metadata").put("uid", "another");

        StatusException e = assertThrows(StatusException.class,
                () -> store.update(DEFAULT, "a", (ctx, old) -> changed, UpdateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertEquals("metadata.uid", e.details().causes().get(0).field());
    }

    @Test
    void updateIgnoresChangesToCreationTimestampAndGeneration() {
        // rest.BeforeUpdate: "ignore changes to timestamp"; "Ensure requests cannot update generation".
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        ObjectNode changed = created.deepCopy();
        changed.withObjectProperty("metadata").put("creationTimestamp", "2001-01-01T00:00:00Z").put("generation", 7);
        changed.withObjectProperty("data").put("k", "w");

        ObjectNode updated = store.update(DEFAULT, "a", (ctx, old) -> changed, UpdateOptions.DEFAULT).object();

        assertEquals(Unstructured.wrap(created).metadata().creationTimestamp(),
                Unstructured.wrap(updated).metadata().creationTimestamp());
        assertEquals(0, Unstructured.wrap(updated).metadata().generation());
        assertEquals("w", updated.path("data").path("k").asText());
    }

    @Test
    void updateOfAMissingObjectIsNotFoundUnlessTheStrategyCreatesOnUpdate() {
        StatusException e = assertThrows(StatusException.class,
                () -> store.update(DEFAULT, "a", (ctx, old) -> configMap("a"), UpdateOptions.DEFAULT));
        assertEquals(404, e.code());
        assertTrue(list().isEmpty());

        strategy.createOnUpdate = true;
        UpdateResult r = store.update(DEFAULT, "a", (ctx, old) -> configMap("a"), UpdateOptions.DEFAULT);

        assertTrue(r.created());
        assertNotNull(Unstructured.wrap(r.object()).metadata().uid());
        assertEquals(r.object(), store.get(DEFAULT, "a", ""));
    }

    @Test
    void dryRunCreateStoresNothing() {
        ObjectNode result = store.create(DEFAULT, configMap("a"), new CreateOptions(true, null));

        assertEquals("a", Unstructured.wrap(result).metadata().name());
        assertNotNull(Unstructured.wrap(result).metadata().uid());
        assertEquals(404, assertThrows(StatusException.class, () -> store.get(DEFAULT, "a", "")).code());
        assertTrue(list().isEmpty());
    }

    @Test
    void dryRunUpdateStoresNothing() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        long revision = storage.currentResourceVersion();
        ObjectNode changed = created.deepCopy();
        changed.withObjectProperty("data").put("k", "dry");

        UpdateResult r = store.update(DEFAULT, "a", (ctx, old) -> changed, new UpdateOptions(true, null));

        assertEquals("dry", r.object().path("data").path("k").asText());
        assertEquals(created, store.get(DEFAULT, "a", ""));
        assertEquals(revision, storage.currentResourceVersion());
    }

    @Test
    void dryRunDeleteStoresNothing() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        store.delete(DEFAULT, "a", new DeleteOptions(true, null, null, null));

        assertEquals(created, store.get(DEFAULT, "a", ""));
    }

    @Test
    void deleteRemovesTheObject() {
        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        ObjectNode deleted = store.delete(DEFAULT, "a", DeleteOptions.DEFAULT).object();

        assertEquals("a", Unstructured.wrap(deleted).metadata().name());
        assertEquals(404, assertThrows(StatusException.class, () -> store.get(DEFAULT, "a", "")).code());
        assertEquals(404, assertThrows(StatusException.class,
                () -> store.delete(DEFAULT, "a", DeleteOptions.DEFAULT)).code());
    }

    @Test
    void deleteWithAMismatchedUidPreconditionIsConflict() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        String uid = Unstructured.wrap(created).metadata().uid();
        DeleteOptions options = new DeleteOptions(false, null, new Preconditions("not-the-uid", null), null);

        StatusException e = assertThrows(StatusException.class, () -> store.delete(DEFAULT, "a", options));

        assertEquals(409, e.code());
        assertEquals(StatusReason.CONFLICT, e.reason());
        // rest.BeforeDelete checks preconditions first, naming the kind as the "resource".
        assertEquals("Operation cannot be fulfilled on ConfigMap \"a\": the UID in the precondition (not-the-uid) "
                + "does not match the UID in record (" + uid + "). The object might have been deleted and then "
                + "recreated", e.getMessage());
        assertEquals(created, store.get(DEFAULT, "a", ""));
        assertEquals(409, assertThrows(StatusException.class,
                () -> store.delete(DEFAULT, "a", new DeleteOptions(true, null, new Preconditions("x", null), null)))
                .code(), "a dry run checks preconditions too");
    }

    @Test
    void deleteWithTheRightUidPrecondition() {
        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        String uid = Unstructured.wrap(created).metadata().uid();

        store.delete(DEFAULT, "a", new DeleteOptions(false, null, new Preconditions(uid, null), null));

        assertTrue(list().isEmpty());
    }

    @Test
    void concurrentUpdatesLoseNoIncrement() throws Exception {
        store.create(DEFAULT, counter("c", 0), CreateOptions.DEFAULT);
        int threads = 4;
        int perThread = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        store.update(DEFAULT, "c", (ctx, old) -> {
                            ObjectNode next = old.deepCopy();
                            int n = Integer.parseInt(next.path("data").path("n").asText());
                            next.withObjectProperty("data").put("n", Integer.toString(n + 1));
                            return next;
                        }, UpdateOptions.DEFAULT);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(Integer.toString(threads * perThread), store.get(DEFAULT, "c", "").path("data").path("n").asText());
    }

    @Test
    void mutatingAdmissionChangesAreStored() {
        admission.addMutating(TestAdmissionPlugins.mutating("AddLabel", a -> a.object().withObjectProperty("metadata")
                .withObjectProperty("labels").put("admitted", a.operation().name().toLowerCase())), Map.of());

        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        assertEquals("create", store.get(DEFAULT, "a", "").path("metadata").path("labels").path("admitted").asText());

        ObjectNode changed = store.get(DEFAULT, "a", "");
        changed.withObjectProperty("metadata").remove("labels");
        store.update(DEFAULT, "a", (ctx, old) -> changed, UpdateOptions.DEFAULT);
        assertEquals("update", store.get(DEFAULT, "a", "").path("metadata").path("labels").path("admitted").asText());
    }

    @Test
    void mutatingAdmissionChangesAreValidated() {
        admission.addMutating(TestAdmissionPlugins.mutating("BadLabel", a -> a.object().withObjectProperty("metadata")
                .withObjectProperty("labels").put("bad key", "x")), Map.of());

        StatusException e = assertThrows(StatusException.class,
                () -> store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT));

        assertEquals(422, e.code());
        assertTrue(list().isEmpty());
    }

    @Test
    void validatingAdmissionRejectsAndNothingIsStored() {
        List<AdmissionAttributes> seen = new ArrayList<>();
        admission.addValidating(TestAdmissionPlugins.validating("Deny", a -> {
            seen.add(a);
            if (a.object() != null && a.object().path("data").has("forbidden")
                    || a.operation() == Operation.DELETE) {
                throw StatusException.forbidden(CONFIGMAPS, a.name(), "denied by Deny");
            }
        }), Map.of());
        ObjectNode bad = configMap("a");
        bad.withObjectProperty("data").put("forbidden", "1");

        StatusException e = assertThrows(StatusException.class, () -> store.create(DEFAULT, bad, CreateOptions.DEFAULT));
        assertEquals(403, e.code());
        assertTrue(list().isEmpty());

        ObjectNode created = store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        AdmissionAttributes createAttrs = seen.get(seen.size() - 1);
        assertEquals(Operation.CREATE, createAttrs.operation());
        assertEquals("default", createAttrs.namespace());
        assertEquals("a", createAttrs.name());
        assertEquals("ConfigMap", createAttrs.kind().kind());
        assertEquals("configmaps", createAttrs.resource().resource());
        assertEquals("v1", createAttrs.kind().version());

        ObjectNode changed = created.deepCopy();
        changed.withObjectProperty("data").put("forbidden", "1");
        assertEquals(403, assertThrows(StatusException.class,
                () -> store.update(DEFAULT, "a", (ctx, old) -> changed, UpdateOptions.DEFAULT)).code());
        assertEquals(created, store.get(DEFAULT, "a", ""));
        AdmissionAttributes updateAttrs = seen.get(seen.size() - 1);
        assertEquals(Operation.UPDATE, updateAttrs.operation());
        assertEquals(created, updateAttrs.oldObject());

        assertEquals(403, assertThrows(StatusException.class,
                () -> store.delete(DEFAULT, "a", DeleteOptions.DEFAULT)).code());
        assertEquals(created, store.get(DEFAULT, "a", ""));
    }

    @Test
    void admissionSeesDryRun() {
        List<Boolean> dryRuns = new ArrayList<>();
        admission.addValidating(TestAdmissionPlugins.validating("Record", a -> dryRuns.add(a.dryRun())), Map.of());

        store.create(DEFAULT, configMap("a"), new CreateOptions(true, null));
        store.create(DEFAULT, configMap("b"), CreateOptions.DEFAULT);

        assertEquals(List.of(true, false), dryRuns);
    }

    @Test
    void admissionPluginsRunInRankingOrder() {
        List<String> order = new ArrayList<>();
        admission.addMutating(recorder("low", order), Map.of("service.ranking", 1, "service.id", 1L));
        admission.addMutating(recorder("high", order), Map.of("service.ranking", 10, "service.id", 2L));

        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        assertEquals(List.of("high", "low"), order);
    }

    @Test
    void admissionPluginsRunInKubesOrderWhateverTheirRanking() {
        List<String> order = new ArrayList<>();
        admission.addMutating(recorder("MutatingAdmissionWebhook", order), Map.of("service.ranking", 100, "service.id", 1L));
        admission.addMutating(recorder("Mine", order), Map.of("service.ranking", 50, "service.id", 2L));
        admission.addMutating(recorder("LimitRanger", order), Map.of("service.id", 3L));
        admission.addMutating(recorder("NamespaceLifecycle", order), Map.of("service.id", 4L));

        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        assertEquals(List.of("NamespaceLifecycle", "LimitRanger", "Mine", "MutatingAdmissionWebhook"), order);
    }

    @Test
    void aPluginAskingForReinvocationRunsEveryMutatingPluginOnceMore() {
        List<String> order = new ArrayList<>();
        admission.addMutating(TestAdmissionPlugins.mutating("First", a -> order.add("First"
                + (a.reinvocation().isReinvoke() ? "-again" : ""))), Map.of("service.id", 1L));
        admission.addMutating(TestAdmissionPlugins.mutating("Second", a -> {
            order.add("Second" + (a.reinvocation().isReinvoke() ? "-again" : ""));
            a.reinvocation().setShouldReinvoke();
        }), Map.of("service.id", 2L));

        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);

        assertEquals(List.of("First", "Second", "First-again", "Second-again"), order);
    }

    @Test
    void admissionSeesTheOptionsAsKubeHandsThemOver() {
        List<String> options = new ArrayList<>();
        admission.addValidating(TestAdmissionPlugins.validating("Record", a -> options.add(a.operation() + " "
                + a.options())), Map.of());

        store.create(DEFAULT, configMap("a"), new CreateOptions(true, "kubectl-create", "Strict"));
        store.create(DEFAULT, configMap("b"), CreateOptions.DEFAULT);
        ObjectNode b = store.get(DEFAULT, "b", "");
        store.update(DEFAULT, "b", (ctx, old) -> b, new UpdateOptions(false, "kubectl-edit", "Warn"));
        store.delete(DEFAULT, "b", new DeleteOptions(false, 0L, null, "Background"));

        assertEquals(List.of(
                "CREATE {\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\",\"dryRun\":[\"All\"],"
                        + "\"fieldManager\":\"kubectl-create\",\"fieldValidation\":\"Strict\"}",
                "CREATE {\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}",
                "UPDATE {\"kind\":\"UpdateOptions\",\"apiVersion\":\"meta.k8s.io/v1\",\"fieldManager\":\"kubectl-edit\","
                        + "\"fieldValidation\":\"Warn\"}",
                "DELETE {\"kind\":\"DeleteOptions\",\"apiVersion\":\"meta.k8s.io/v1\",\"gracePeriodSeconds\":0,"
                        + "\"propagationPolicy\":\"Background\"}"), options);
    }

    @Test
    void clusterScopedResourceHasNoNamespace() {
        GenericStore nodes = new GenericStore(StoreSpec.builder(GroupResource.of("", "nodes"), "Node").namespaced(false)
                .strategy(strategy).build(), backend.forResource(new StorageConfig(GroupResource.of("", "nodes"),
                "/nodes")), admission);
        ObjectNode node = configMap("n1");
        node.put("kind", "Node");

        ObjectNode created = nodes.create(RequestContext.system(""), node, CreateOptions.DEFAULT);

        assertNull(Unstructured.wrap(created).metadata().namespace());
        assertEquals(created, nodes.get(RequestContext.system(""), "n1", ""));
    }

    @Test
    void namespacedGetWithoutNamespaceIsBadRequest() {
        assertEquals(400, assertThrows(StatusException.class,
                () -> store.get(RequestContext.system(""), "a", "")).code());
    }

    @Test
    void deleteCollectionDeletesWhatMatches() {
        store.create(DEFAULT, configMap("a"), CreateOptions.DEFAULT);
        store.create(DEFAULT, configMap("b"), CreateOptions.DEFAULT);
        store.create(RequestContext.system("other"), configMap("c"), CreateOptions.DEFAULT);

        assertEquals(2, store.deleteCollection(DEFAULT, DeleteOptions.DEFAULT, all()).items().size());

        assertEquals(List.of("c"), list().stream().map(o -> Unstructured.wrap(o).metadata().name()).toList());
    }

    private GenericStore newStore(TestStrategy s) {
        return new GenericStore(StoreSpec.builder(CONFIGMAPS, "ConfigMap").shortNames("cm").strategy(s).build(),
                storage, admission);
    }

    private List<ObjectNode> list() {
        return store.list(RequestContext.system(""), all()).items();
    }

    private static ListOptions all() {
        return new ListOptions("", null, null, true, 0, null, false);
    }

    private static long rv(ObjectNode o) {
        return Long.parseLong(Unstructured.wrap(o).metadata().resourceVersion());
    }

    private static ObjectNode configMap(String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1");
        o.put("kind", "ConfigMap");
        ObjectNode meta = o.putObject("metadata");
        if (name != null) {
            meta.put("name", name);
        }
        o.putObject("data").put("k", "v");
        return o;
    }

    private static ObjectNode counter(String name, int n) {
        ObjectNode o = configMap(name);
        o.withObjectProperty("data").put("n", Integer.toString(n));
        return o;
    }

    private static MutatingAdmissionPlugin recorder(String name, List<String> order) {
        return TestAdmissionPlugins.mutating(name, a -> order.add(name));
    }

    private static final class TestStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
        volatile boolean unconditional = true;
        volatile boolean createOnUpdate;
        volatile List<FieldError> errors = List.of();

        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return errors;
        }

        @Override
        public boolean allowCreateOnUpdate() {
            return createOnUpdate;
        }

        @Override
        public boolean allowUnconditionalUpdate() {
            return unconditional;
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return errors;
        }
    }

}
