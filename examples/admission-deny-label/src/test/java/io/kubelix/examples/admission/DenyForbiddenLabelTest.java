package io.kubelix.examples.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The plugin alone, without a server. */
class DenyForbiddenLabelTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DenyForbiddenLabel plugin = new DenyForbiddenLabel();

    @Test
    void refusesTheLabelWithForbidden() throws Exception {
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(
                create("{\"metadata\":{\"name\":\"cm\",\"labels\":{\"kubelix.io/forbidden\":\"true\"}}}")));
        assertEquals(StatusReason.FORBIDDEN, e.reason());
        assertEquals(403, e.code());
        assertEquals("configmaps \"cm\" is forbidden: the label kubelix.io/forbidden=true is not allowed "
                + "(admission plugin DenyForbiddenLabel)", e.getMessage());
    }

    @Test
    void admitsOtherLabelsAndValues() throws Exception {
        assertDoesNotThrow(() -> plugin.validate(create("{\"metadata\":{\"name\":\"cm\"}}")));
        assertDoesNotThrow(() -> plugin.validate(
                create("{\"metadata\":{\"name\":\"cm\",\"labels\":{\"kubelix.io/forbidden\":\"false\"}}}")));
        assertFalse(plugin.handles(Operation.DELETE));
    }

    private static AdmissionAttributes create(String json) throws Exception {
        ObjectNode obj = (ObjectNode) JSON.readTree(json);
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "ConfigMap"),
                new GroupVersionResource("", "v1", "configmaps"), "", "default", obj.path("metadata").path("name").asText(),
                obj, null, false, RequestContext.system("default"));
    }
}
