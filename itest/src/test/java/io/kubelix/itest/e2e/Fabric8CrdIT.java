package io.kubelix.itest.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An operator-style client on custom resources: fabric8's {@code kubernetes-client} creates a CRD
 * with its typed apiextensions model, waits until it is Established, and runs a SharedIndexInformer
 * over the custom resources while a second client creates, edits and deletes them.
 */
class Fabric8CrdIT extends KubectlSuite {
    private static final long WAIT_SECONDS = 30;
    private static final ResourceDefinitionContext GEARS = new ResourceDefinitionContext.Builder()
            .withGroup("stable.example.com").withVersion("v1").withPlural("gears").withKind("Gear").withNamespaced(true)
            .build();

    Fabric8CrdIT() {
        super("fabric8-crd", "customresourcedefinitions");
    }

    private KubernetesClient client() throws Exception {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(server.kubeconfig()))).build();
    }

    @Test
    void anInformerOverCustomResourcesSeesAnotherClientsWrites() throws Exception {
        try (KubernetesClient operator = client(); KubernetesClient writer = client()) {
            CustomResourceDefinition crd = new CustomResourceDefinitionBuilder()
                    .withNewMetadata().withName("gears.stable.example.com").endMetadata()
                    .withNewSpec().withGroup("stable.example.com").withScope("Namespaced")
                    .withNewNames().withPlural("gears").withKind("Gear").endNames()
                    .addNewVersion().withName("v1").withServed(true).withStorage(true)
                    .withNewSchema().withOpenAPIV3Schema(new JSONSchemaPropsBuilder().withType("object")
                            .addToProperties("spec", new JSONSchemaPropsBuilder().withType("object")
                                    .addToProperties("teeth", new JSONSchemaPropsBuilder().withType("integer").build())
                                    .build())
                            .build()).endSchema()
                    .endVersion().endSpec().build();
            operator.apiextensions().v1().customResourceDefinitions().resource(crd).create();
            operator.apiextensions().v1().customResourceDefinitions().withName("gears.stable.example.com")
                    .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                            .anyMatch(x -> x.getType().equals("Established") && x.getStatus().equals("True")),
                            WAIT_SECONDS, TimeUnit.SECONDS);

            BlockingQueue<String> events = new LinkedBlockingQueue<>();
            SharedIndexInformer<GenericKubernetesResource> informer = operator.genericKubernetesResources(GEARS)
                    .inNamespace("default").inform(new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(GenericKubernetesResource obj) {
                            events.add("ADD " + obj.getMetadata().getName() + " " + teeth(obj));
                        }

                        @Override
                        public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                            if (!oldObj.getMetadata().getResourceVersion().equals(newObj.getMetadata().getResourceVersion())) {
                                events.add("UPDATE " + newObj.getMetadata().getName() + " " + teeth(newObj));
                            }
                        }

                        @Override
                        public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                            events.add("DELETE " + obj.getMetadata().getName());
                        }
                    });
            try {
                assertTrue(informer.hasSynced());
                writer.genericKubernetesResources(GEARS).inNamespace("default").resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("stable.example.com/v1").withKind("Gear").withNewMetadata().withName("g1").endMetadata()
                        .withAdditionalProperties(Map.of("spec", Map.of("teeth", 12))).build()).create();
                assertEquals("ADD g1 12", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));

                writer.genericKubernetesResources(GEARS).inNamespace("default").withName("g1").edit(g -> {
                    g.setAdditionalProperty("spec", Map.of("teeth", 24));
                    return g;
                });
                assertEquals("UPDATE g1 24", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));
                assertEquals(24, ((Number) ((Map<?, ?>) informer.getStore().getByKey("default/g1")
                        .getAdditionalProperties().get("spec")).get("teeth")).intValue());

                writer.genericKubernetesResources(GEARS).inNamespace("default").withName("g1").delete();
                assertEquals("DELETE g1", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));
                assertTrue(informer.getStore().list().isEmpty());
            } finally {
                informer.stop();
            }
        }
    }

    private static Object teeth(GenericKubernetesResource r) {
        return ((Map<?, ?>) r.getAdditionalProperties().get("spec")).get("teeth");
    }
}
