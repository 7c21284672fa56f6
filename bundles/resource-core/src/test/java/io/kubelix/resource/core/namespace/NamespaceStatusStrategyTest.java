package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** namespaces/status as kube's namespaceStatusStrategy and ValidateNamespaceStatusUpdate. */
class NamespaceStatusStrategyTest {
    private final NamespaceStatusStrategy strategy = new NamespaceStatusStrategy();
    private final RequestContext ctx = RequestContext.system("");

    @Test
    void specKeepsItsStoredValueAndStatusTakesTheNewOne() {
        ObjectNode old = Json.obj("{\"metadata\":{\"name\":\"n\"},\"spec\":{\"finalizers\":[\"kubernetes\"]},"
                + "\"status\":{\"phase\":\"Active\"}}");
        ObjectNode obj = Json.obj("{\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":\"b\"}},\"spec\":{\"finalizers\":[]},"
                + "\"status\":{\"phase\":\"Active\",\"conditions\":[]}}");

        strategy.prepareForUpdate(ctx, obj, old);

        assertEquals(old.get("spec"), obj.get("spec"));
        assertEquals("b", obj.path("metadata").path("labels").path("a").asText(), "metadata is the client's");
        assertTrue(obj.path("status").has("conditions"));
    }

    @Test
    void phaseMustBeActiveUnlessDeleting() {
        ObjectNode obj = Json.obj("{\"metadata\":{\"name\":\"n\"},\"status\":{\"phase\":\"Terminating\"}}");

        List<FieldError> errs = strategy.validateUpdate(ctx, obj, obj.deepCopy());

        assertEquals(1, errs.size());
        assertEquals("status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty",
                errs.get(0).message());
    }

    @Test
    void phaseMustBeTerminatingWhileDeleting() {
        ObjectNode obj = Json.obj("{\"metadata\":{\"name\":\"n\",\"deletionTimestamp\":\"2030-01-01T00:00:00Z\"},"
                + "\"status\":{\"phase\":\"Active\"}}");

        List<FieldError> errs = strategy.validateUpdate(ctx, obj, obj.deepCopy());

        assertEquals("status.Phase: Invalid value: \"Active\": may only be 'Terminating' if `deletionTimestamp` is not "
                + "empty", errs.get(0).message());
    }
}
