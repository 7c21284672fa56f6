package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.ScaleSubresource;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.runtime.MemoryTestBackends;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Admission of a {@code scale} request sees {@code autoscaling/v1 Scale} objects, as kube-apiserver's
 * handler admits the subresource's kind, and a mutating plugin's change of the Scale's replicas
 * reaches the parent.
 */
class ScaleAdmissionTest {
    private static final GroupResource DEPLOYMENTS = GroupResource.of("apps", "deployments");
    private static final RequestContext DEFAULT = RequestContext.system("default");

    private MemoryStorageBackend backend;
    private AdmissionChain admission;
    private GenericStore deployments;
    private ScaleREST scale;
    private final List<AdmissionAttributes> mutated = new ArrayList<>();
    private final List<AdmissionAttributes> validated = new ArrayList<>();

    @BeforeEach
    void setUp() {
        backend = MemoryTestBackends.newBackend(1000, 100, 60_000);
        admission = new AdmissionChain();
        Permissive strategy = new Permissive();
        deployments = new GenericStore(StoreSpec.builder(DEPLOYMENTS, "Deployment").namespaced(true).strategy(strategy)
                .build(), backend.forResource(new StorageConfig(DEPLOYMENTS, "/deployments")), admission);
        scale = new ScaleREST(deployments, DEPLOYMENTS, ScaleSubresource.replicasAndSpecSelector());
        deployments.create(DEFAULT, deployment("web", 2), CreateOptions.DEFAULT);
    }

    @AfterEach
    void tearDown() throws Exception {
        MemoryTestBackends.close(backend);
    }

    @Test
    void mutatingAndValidatingPluginsSeeScalesOfTheParent() {
        admission.addMutating(recording("record-mutating", mutated, null), Map.of("service.id", 1L));
        admission.addValidating(TestAdmissionPlugins.validating("record-validating", validated::add), Map.of("service.id", 2L));

        scale.update(DEFAULT, "web", (ctx, old) -> withReplicas(old, 5), UpdateOptions.DEFAULT);

        for (AdmissionAttributes a : List.of(mutated.get(0), validated.get(0))) {
            assertEquals("autoscaling/v1", a.kind().groupVersion().apiVersion());
            assertEquals("Scale", a.kind().kind());
            assertEquals("deployments", a.resource().resource());
            assertEquals("apps", a.resource().group());
            assertEquals("Scale", a.object().path("kind").asText());
            assertEquals(5, a.object().path("spec").path("replicas").asInt());
            assertEquals(2, a.oldObject().path("spec").path("replicas").asInt());
            assertEquals("web", a.name());
            assertEquals("default", a.namespace());
        }
        assertEquals(5, stored().path("spec").path("replicas").asInt());
    }

    @Test
    void aMutatingPluginsReplicasReachTheParent() {
        admission.addMutating(recording("cap-at-3", mutated, 3L), Map.of("service.id", 1L));

        ObjectNode answered = scale.update(DEFAULT, "web", (ctx, old) -> withReplicas(old, 10), UpdateOptions.DEFAULT)
                .object();

        assertEquals(3, answered.path("spec").path("replicas").asInt());
        assertEquals(3, stored().path("spec").path("replicas").asInt());
    }

    @Test
    void aValidatingPluginsRefusalLeavesTheParentAlone() {
        admission.addValidating(TestAdmissionPlugins.validating("no-more-than-4", a -> {
            if (a.object().path("spec").path("replicas").asLong() > 4) {
                throw StatusException.forbidden(DEPLOYMENTS, a.name(), "too many replicas");
            }
        }), Map.of("service.id", 2L));

        StatusException e = assertThrows(StatusException.class,
                () -> scale.update(DEFAULT, "web", (ctx, old) -> withReplicas(old, 9), UpdateOptions.DEFAULT));

        assertEquals(403, e.code());
        assertEquals(2, stored().path("spec").path("replicas").asInt());
    }

    private ObjectNode stored() {
        return deployments.get(DEFAULT, "web", "");
    }

    /** A mutating plugin that records what it sees and, when {@code cap} is set, caps the Scale's replicas. */
    private static MutatingAdmissionPlugin recording(String name, List<AdmissionAttributes> seen, Long cap) {
        return TestAdmissionPlugins.mutating(name, a -> {
            seen.add(new AdmissionAttributes(a.operation(), a.kind(), a.resource(), a.subresource(), a.namespace(),
                    a.name(), a.object().deepCopy(), a.oldObject().deepCopy(), a.dryRun(), a.context()));
            if (cap != null && a.object().path("spec").path("replicas").asLong() > cap) {
                ((ObjectNode) a.object().path("spec")).put("replicas", cap);
            }
        });
    }

    private static ObjectNode withReplicas(ObjectNode scale, long replicas) {
        ObjectNode s = scale.deepCopy();
        ((ObjectNode) s.path("spec")).put("replicas", replicas);
        return s;
    }

    private static ObjectNode deployment(String name, int replicas) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.put("apiVersion", "apps/v1").put("kind", "Deployment");
        d.putObject("metadata").put("name", name);
        ObjectNode spec = d.putObject("spec");
        spec.put("replicas", replicas);
        spec.putObject("selector").putObject("matchLabels").put("app", name);
        return d;
    }

    private static final class Permissive implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public List<io.kubelix.api.errors.FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return List.of();
        }

        @Override
        public List<io.kubelix.api.errors.FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return List.of();
        }
    }
}
