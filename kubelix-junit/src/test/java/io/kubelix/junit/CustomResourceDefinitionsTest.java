package io.kubelix.junit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code @KubelixTest(crds = ...)}: the definitions of a class path file are served before the first test. */
@KubelixTest(crds = "crds/widgets.yaml")
class CustomResourceDefinitionsTest {
    private static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder()
            .withGroup("example.kubelix.io").withVersion("v1").withPlural("widgets").withKind("Widget")
            .withNamespaced(true).build();

    @Test
    void customResourcesAreServedFromTheFirstTest(KubernetesClient client, @TestNamespace String namespace) {
        GenericKubernetesResource widget = new GenericKubernetesResourceBuilder().withApiVersion("example.kubelix.io/v1")
                .withKind("Widget").withNewMetadata().withName("w1").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", 3))).build();
        client.genericKubernetesResources(WIDGETS).inNamespace(namespace).resource(widget).create();

        GenericKubernetesResource read = client.genericKubernetesResources(WIDGETS).inNamespace(namespace)
                .withName("w1").get();
        assertEquals(Map.of("size", 3), read.getAdditionalProperties().get("spec"));
        assertEquals("gadgets.example.kubelix.io", client.apiextensions().v1().customResourceDefinitions()
                .withName("gadgets.example.kubelix.io").get().getMetadata().getName());

        KubernetesClientException invalid = assertThrows(KubernetesClientException.class,
                () -> client.genericKubernetesResources(WIDGETS).inNamespace(namespace).resource(
                        new GenericKubernetesResourceBuilder().withApiVersion("example.kubelix.io/v1").withKind("Widget")
                                .withNewMetadata().withName("w2").endMetadata()
                                .withAdditionalProperties(Map.of("spec", Map.of("size", "big"))).build()).create());
        assertEquals(422, invalid.getCode(), "the definition's schema is enforced");
    }
}
