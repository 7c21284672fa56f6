package io.kubelix.support.admission.guard;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ObjectWritesTest {
    private static final ObjectNode POD = JsonNodeFactory.instance.objectNode();

    private static AdmissionAttributes write(String group, String resource, String subresource, ObjectNode object) {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind(group, "v1", "Any"),
                new GroupVersionResource(group, "v1", resource), subresource, "default", "a", object, null, false, null);
    }

    @Test
    void onlyTheResourcesOwnObjectCounts() {
        assertTrue(ObjectWrites.of(write("", "pods", "", POD), "", "pods"));
        assertFalse(ObjectWrites.of(write("", "pods", "status", POD), "", "pods"));
        assertFalse(ObjectWrites.of(write("", "pods", "", null), "", "pods"));
        assertFalse(ObjectWrites.of(write("", "nodes", "", POD), "", "pods"));
        assertFalse(ObjectWrites.of(write("example.com", "pods", "", POD), "", "pods"));
    }
}
