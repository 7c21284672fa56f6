package io.kubelix.tools.openapigen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated definitions, checked against what kube-apiserver v1.32 publishes for the same types. */
class SchemaGeneratorTest {
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static ObjectNode schemas;

    @BeforeAll
    static void generate() throws IOException {
        ClassLoader loader = SchemaGeneratorTest.class.getClassLoader();
        schemas = (ObjectNode) OpenAPIGen.generate(List.of("io.k8s.api.core.v1.ConfigMap", "io.k8s.api.core.v1.Secret",
                "io.k8s.api.core.v1.Namespace", "io.k8s.api.core.v1.PodSpec", "io.k8s.api.core.v1.PersistentVolume"), loader).path("components").path("schemas");
    }

    @Test
    void configMapHasTypeMetaFromTheModelAndItsFieldsFromProtobuf() {
        JsonNode cm = schemas.get("io.k8s.api.core.v1.ConfigMap");
        assertEquals("object", cm.path("type").asText());
        assertEquals(List.of("apiVersion", "binaryData", "data", "immutable", "kind", "metadata"), names(cm.path("properties")));
        JsonNode p = cm.path("properties");
        assertEquals("string", p.path("apiVersion").path("type").asText());
        assertTrue(p.path("kind").path("description").asText().startsWith("Kind is a string value representing the REST resource"));
        assertEquals("#/components/schemas/" + META + "ObjectMeta", p.path("metadata").path("allOf").get(0).path("$ref").asText());
        assertTrue(p.path("metadata").path("description").asText().startsWith("Standard object's metadata."));
        assertEquals("string", p.path("data").path("additionalProperties").path("type").asText());
        assertEquals("object", p.path("data").path("type").asText());
        assertEquals("byte", p.path("binaryData").path("additionalProperties").path("format").asText());
        assertEquals("boolean", p.path("immutable").path("type").asText());
        assertFalse(cm.has("required"));
    }

    /** Go's `json:",inline"` embedded structs: their fields are the object's own, as kube publishes them. */
    @Test
    void inlinedVolumeSourcesAreFieldsOfTheirParent() {
        JsonNode pv = schemas.get("io.k8s.api.core.v1.PersistentVolumeSpec").path("properties");
        assertTrue(pv.path("hostPath").toString().contains("\"#/components/schemas/io.k8s.api.core.v1.HostPathVolumeSource\""),
                pv::toString);
        assertTrue(pv.has("csi") && pv.has("nfs") && pv.has("capacity"), pv::toString);
        assertFalse(pv.has("persistentVolumeSource"));
        JsonNode volume = schemas.get("io.k8s.api.core.v1.Volume").path("properties");
        assertTrue(volume.has("name") && volume.has("configMap") && volume.has("emptyDir"), volume::toString);
        assertFalse(volume.has("volumeSource"));
    }

    @Test
    void aModelFieldNewerThanTheProtobufIsLeftOut() throws IOException {
        // The Java client's NodeStatus has "features", whose type has no message at the protobuf's API level.
        ObjectNode node = (ObjectNode) OpenAPIGen.generate(List.of("io.k8s.api.core.v1.NodeStatus"),
                SchemaGeneratorTest.class.getClassLoader()).path("components").path("schemas");
        JsonNode props = node.path("io.k8s.api.core.v1.NodeStatus").path("properties");
        assertTrue(props.has("conditions"));
        assertFalse(props.has("features"));
    }

    @Test
    void objectMetaListsCarryKubesMergeAndListExtensions() {
        JsonNode p = schemas.get(META + "ObjectMeta").path("properties");
        JsonNode owners = p.path("ownerReferences");
        assertEquals("array", owners.path("type").asText());
        assertEquals("uid", owners.path("x-kubernetes-patch-merge-key").asText());
        assertEquals("merge", owners.path("x-kubernetes-patch-strategy").asText());
        assertEquals("map", owners.path("x-kubernetes-list-type").asText());
        assertEquals(List.of("uid"), texts(owners.path("x-kubernetes-list-map-keys")));
        assertEquals("#/components/schemas/" + META + "OwnerReference", owners.path("items").path("allOf").get(0).path("$ref").asText());
        JsonNode finalizers = p.path("finalizers");
        assertEquals("set", finalizers.path("x-kubernetes-list-type").asText());
        assertEquals("merge", finalizers.path("x-kubernetes-patch-strategy").asText());
        assertEquals("", finalizers.path("items").path("default").asText("missing"));
        assertEquals("atomic", p.path("managedFields").path("x-kubernetes-list-type").asText());
        assertEquals("#/components/schemas/" + META + "Time", p.path("creationTimestamp").path("allOf").get(0).path("$ref").asText());
        assertEquals("int64", p.path("generation").path("format").asText());
    }

    @Test
    void requiredFieldsAndAtomicStructs() {
        JsonNode owner = schemas.get(META + "OwnerReference");
        assertEquals(List.of("apiVersion", "kind", "name", "uid"), texts(owner.path("required")));
        assertEquals("atomic", owner.path("x-kubernetes-map-type").asText());
        assertEquals(List.of("name"), texts(schemas.get("io.k8s.api.core.v1.Container").path("required")));
        assertEquals(List.of("containers"), texts(schemas.get("io.k8s.api.core.v1.PodSpec").path("required")));
    }

    @Test
    void containersAndPortsMergeByTheirKeys() {
        JsonNode containers = schemas.get("io.k8s.api.core.v1.PodSpec").path("properties").path("containers");
        assertEquals("name", containers.path("x-kubernetes-patch-merge-key").asText());
        assertEquals("map", containers.path("x-kubernetes-list-type").asText());
        assertEquals(List.of("name"), texts(containers.path("x-kubernetes-list-map-keys")));
        JsonNode ports = schemas.get("io.k8s.api.core.v1.Container").path("properties").path("ports");
        assertEquals("containerPort", ports.path("x-kubernetes-patch-merge-key").asText());
        assertEquals(List.of("containerPort", "protocol"), texts(ports.path("x-kubernetes-list-map-keys")));
        JsonNode volumes = schemas.get("io.k8s.api.core.v1.PodSpec").path("properties").path("volumes");
        assertEquals("merge,retainKeys", volumes.path("x-kubernetes-patch-strategy").asText());
    }

    @Test
    void typesWithTheirOwnJsonFormAreScalars() {
        assertEquals("date-time", schemas.get(META + "Time").path("format").asText());
        assertEquals("string", schemas.get(META + "Time").path("type").asText());
        assertEquals("int-or-string", schemas.get("io.k8s.apimachinery.pkg.util.intstr.IntOrString").path("format").asText());
        assertEquals("string", schemas.get("io.k8s.apimachinery.pkg.api.resource.Quantity").path("type").asText());
        assertEquals("object", schemas.get(META + "FieldsV1").path("type").asText());
        assertFalse(schemas.get(META + "Time").has("properties"));
    }

    @Test
    void namespaceAndSecretAndEveryReferenceResolves() {
        JsonNode ns = schemas.get("io.k8s.api.core.v1.Namespace").path("properties");
        assertEquals("#/components/schemas/io.k8s.api.core.v1.NamespaceSpec", ns.path("spec").path("allOf").get(0).path("$ref").asText());
        JsonNode finalizers = schemas.get("io.k8s.api.core.v1.NamespaceSpec").path("properties").path("finalizers");
        assertEquals("atomic", finalizers.path("x-kubernetes-list-type").asText());
        assertEquals("byte", schemas.get("io.k8s.api.core.v1.Secret").path("properties").path("data")
                .path("additionalProperties").path("format").asText());
        List<String> refs = new ArrayList<>();
        collectRefs(schemas, refs);
        refs.forEach(r -> assertTrue(schemas.has(r.substring("#/components/schemas/".length())), r));
    }

    @Test
    void descriptionsDropMarkersAndJoinLines() {
        assertEquals("Selects a key from a ConfigMap.\n\nSecond paragraph.",
                SchemaGenerator.description(List.of("Selects a key", "from a ConfigMap.", "+structType=atomic", "",
                        "Second paragraph.", "---", "internal note")));
        assertEquals(List.of("containerPort", "protocol"), SchemaGenerator.markers(List.of("+listMapKey=containerPort",
                "+listMapKey=protocol", "+optional")).get("listMapKey"));
    }

    /**
     * kube's protobuf names the webhooks of a configuration {@code Webhooks} and a validation's
     * expression {@code Expression}, and carries the inline rule of a NamedRuleWithOperations as one
     * field: the definitions still have kube's JSON names.
     */
    @Test
    void protobufNamesAndInlineStructsBecomeKubesJsonFields() throws IOException {
        JsonNode defs = OpenAPIGen.generate(List.of("io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration",
                "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy"), SchemaGeneratorTest.class.getClassLoader())
                .path("components").path("schemas");
        String v1 = "io.k8s.api.admissionregistration.v1.";
        assertEquals(List.of("apiVersion", "kind", "metadata", "webhooks"),
                names(defs.path(v1 + "ValidatingWebhookConfiguration").path("properties")));
        assertEquals("name", defs.path(v1 + "ValidatingWebhookConfiguration").path("properties").path("webhooks")
                .path("x-kubernetes-patch-merge-key").asText());
        assertEquals(List.of("expression", "message", "messageExpression", "reason"),
                names(defs.path(v1 + "Validation").path("properties")));
        assertEquals(List.of("apiGroups", "apiVersions", "operations", "resourceNames", "resources", "scope"),
                names(defs.path(v1 + "NamedRuleWithOperations").path("properties")));
    }

    @Test
    void anUnknownTypeIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> OpenAPIGen.generate(List.of("io.k8s.api.core.v1.NoSuchKind"),
                SchemaGeneratorTest.class.getClassLoader()));
    }

    private static void collectRefs(JsonNode node, List<String> into) {
        if (node.has("$ref")) {
            into.add(node.get("$ref").asText());
        }
        node.forEach(c -> collectRefs(c, into));
    }

    private static List<String> names(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static List<String> texts(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void aKindMissingFromTheProtobufSourcesComesFromItsModel() throws IOException {
        JsonNode generated = OpenAPIGen.generate(List.of("io.k8s.api.discovery.v1.EndpointSlice"),
                SchemaGeneratorTest.class.getClassLoader()).path("components").path("schemas");
        JsonNode slice = generated.get("io.k8s.api.discovery.v1.EndpointSlice");
        assertEquals(List.of("addressType", "endpoints"), texts(slice.path("required")));
        JsonNode endpoints = slice.path("properties").path("endpoints");
        assertEquals("#/components/schemas/io.k8s.api.discovery.v1.Endpoint", endpoints.path("items").path("allOf").get(0)
                .path("$ref").asText());
        assertEquals("#/components/schemas/io.k8s.api.discovery.v1.EndpointPort", slice.path("properties").path("ports")
                .path("items").path("allOf").get(0).path("$ref").asText());
        assertEquals("#/components/schemas/" + META + "ObjectMeta", slice.path("properties").path("metadata").path("$ref")
                .asText());
        assertEquals("array", generated.path("io.k8s.api.discovery.v1.Endpoint").path("properties").path("addresses")
                .path("type").asText());
    }

    @Test
    void inlineEmbeddedStructsAreFlattenedAsTheirJson() throws IOException {
        JsonNode generated = OpenAPIGen.generate(List.of("io.k8s.api.networking.v1.Ingress", "io.k8s.api.core.v1.Volume"),
                SchemaGeneratorTest.class.getClassLoader()).path("components").path("schemas");
        JsonNode rule = generated.path("io.k8s.api.networking.v1.IngressRule").path("properties");
        assertEquals(List.of("host", "http"), names(rule));
        assertEquals("#/components/schemas/io.k8s.api.networking.v1.HTTPIngressRuleValue",
                rule.path("http").path("$ref").asText(rule.path("http").path("allOf").path(0).path("$ref").asText()));
        JsonNode volume = generated.path("io.k8s.api.core.v1.Volume").path("properties");
        assertTrue(volume.has("configMap") && volume.has("emptyDir") && volume.has("name"), volume::toString);
        assertFalse(volume.has("volumeSource"), volume::toString);
    }
}
