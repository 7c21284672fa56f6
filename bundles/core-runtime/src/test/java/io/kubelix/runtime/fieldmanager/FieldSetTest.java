package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FieldSetTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** managedFields of a Deployment as kube-apiserver writes them for kubectl create. */
    private static final String KUBE_DEPLOYMENT = "{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},"
            + "\"f:spec\":{\"f:progressDeadlineSeconds\":{},\"f:replicas\":{},\"f:selector\":{},"
            + "\"f:strategy\":{\"f:rollingUpdate\":{\".\":{},\"f:maxSurge\":{},\"f:maxUnavailable\":{}},\"f:type\":{}},"
            + "\"f:template\":{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},\"f:spec\":{\"f:containers\":"
            + "{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},\"f:imagePullPolicy\":{},\"f:name\":{},"
            + "\"f:ports\":{\".\":{},\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},"
            + "\"f:containerPort\":{},\"f:protocol\":{}}}}}}}}}";

    @Test
    void fieldsV1RoundTripKeepsKubesEncodingAndOrder() throws Exception {
        JsonNode kube = JSON.readTree(KUBE_DEPLOYMENT);
        FieldSet set = FieldSet.fromFieldsV1(kube);
        assertEquals(KUBE_DEPLOYMENT, JSON.writeValueAsString(set.toFieldsV1()));
    }

    @Test
    void fieldsV1MembersAndChildren() throws Exception {
        FieldSet set = FieldSet.fromFieldsV1(JSON.readTree(KUBE_DEPLOYMENT));
        List<PathElement> labels = List.of(f("metadata"), f("labels"));
        assertTrue(set.has(labels), "a map with \".\" is a member");
        assertTrue(set.has(List.of(f("metadata"), f("labels"), f("app"))));
        assertFalse(set.has(List.of(f("metadata"))), "a struct without \".\" is only a parent");
        PathElement nginx = PathElement.key(Map.of("name", TextNode.valueOf("nginx")));
        assertTrue(set.has(List.of(f("spec"), f("template"), f("spec"), f("containers"), nginx)));
        PathElement port = PathElement.key(Map.of("protocol", TextNode.valueOf("TCP"), "containerPort", IntNode.valueOf(80)));
        assertTrue(set.has(List.of(f("spec"), f("template"), f("spec"), f("containers"), nginx, f("ports"), port,
                f("protocol"))));
    }

    @Test
    void elementsEncodeAsKubeDoes() {
        assertEquals("f:replicas", f("replicas").toFieldsV1());
        assertEquals("k:{\"containerPort\":80,\"protocol\":\"TCP\"}", PathElement.key(Map.of("protocol",
                TextNode.valueOf("TCP"), "containerPort", IntNode.valueOf(80))).toFieldsV1());
        assertEquals("v:\"example.com/finalizer\"", PathElement.value(TextNode.valueOf("example.com/finalizer")).toFieldsV1());
        assertEquals("i:3", PathElement.index(3).toFieldsV1());
        for (String s : List.of("f:a", "k:{\"name\":\"x\"}", "v:1", "v:\"x\"", "i:0")) {
            assertEquals(s, PathElement.parseFieldsV1(s).toFieldsV1());
        }
        assertThrows(IllegalArgumentException.class, () -> PathElement.parseFieldsV1("x:a"));
        assertThrows(IllegalArgumentException.class, () -> PathElement.parseFieldsV1("k:[1]"));
    }

    @Test
    void pathsPrintAsInKubeConflicts() {
        PathElement nginx = PathElement.key(Map.of("name", TextNode.valueOf("nginx")));
        assertEquals(".spec.template.spec.containers[name=\"nginx\"].image", PathElement.pathString(
                List.of(f("spec"), f("template"), f("spec"), f("containers"), nginx, f("image"))));
        assertEquals(".metadata.finalizers[=\"a\"]", PathElement.pathString(List.of(f("metadata"), f("finalizers"),
                PathElement.value(TextNode.valueOf("a")))));
        assertEquals(".spec.ports[containerPort=80,protocol=\"TCP\"]", PathElement.pathString(List.of(f("spec"),
                f("ports"), PathElement.key(Map.of("containerPort", IntNode.valueOf(80), "protocol", TextNode.valueOf("TCP"))))));
    }

    @Test
    void setOperations() {
        FieldSet a = FieldSet.of(List.of(f("spec"), f("replicas")), List.of(f("spec"), f("paused")),
                List.of(f("metadata"), f("labels")), List.of(f("metadata"), f("labels"), f("app")));
        FieldSet b = FieldSet.of(List.of(f("spec"), f("replicas")), List.of(f("metadata"), f("labels")));
        assertEquals(FieldSet.of(List.of(f("spec"), f("replicas")), List.of(f("metadata"), f("labels"))),
                a.intersection(b));
        assertEquals(FieldSet.of(List.of(f("spec"), f("paused")), List.of(f("metadata"), f("labels"), f("app"))),
                a.difference(b), "difference keeps the children of a removed member");
        assertEquals(FieldSet.of(List.of(f("spec"), f("paused"))), a.recursiveDifference(b),
                "recursive difference removes what lies under a removed member");
        assertEquals(a, a.union(b));
        assertTrue(a.difference(a).isEmpty());
        assertEquals(4, a.paths().size());
    }

    private static PathElement f(String name) {
        return PathElement.field(name);
    }
}
