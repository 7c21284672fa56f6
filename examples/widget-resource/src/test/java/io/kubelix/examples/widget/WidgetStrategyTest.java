package io.kubelix.examples.widget;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The strategies alone, without a server: defaulting, validation and the status subresource. */
class WidgetStrategyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RequestContext CTX = RequestContext.system("default");

    private final WidgetStrategy strategy = new WidgetStrategy();

    @Test
    void sizeDefaultsToOneAndStatusIsDroppedOnCreate() throws Exception {
        ObjectNode w = widget("{\"metadata\":{\"name\":\"w\"},\"status\":{\"ready\":true}}");
        strategy.prepareForCreate(CTX, w);
        assertEquals(1, w.path("spec").path("size").asInt());
        assertFalse(w.has("status"));
        assertTrue(strategy.validate(CTX, w).isEmpty());
    }

    @Test
    void negativeOrNonIntegerSizeIsInvalidOnSpecSize() throws Exception {
        List<FieldError> negative = strategy.validate(CTX, widget("{\"spec\":{\"size\":-1}}"));
        assertEquals(1, negative.size());
        assertEquals("spec.size", negative.get(0).field());
        assertEquals("spec.size: Invalid value: -1: must be greater than or equal to 0", negative.get(0).message());
        List<FieldError> text = strategy.validate(CTX, widget("{\"spec\":{\"size\":\"big\"}}"));
        assertEquals("spec.size: Invalid value: \"big\": must be an integer", text.get(0).message());
        assertTrue(strategy.validate(CTX, widget("{\"spec\":{\"size\":0}}")).isEmpty());
    }

    @Test
    void updateOfTheWidgetKeepsTheStoredStatus() throws Exception {
        ObjectNode old = widget("{\"spec\":{\"size\":2},\"status\":{\"ready\":true}}");
        ObjectNode changed = widget("{\"spec\":{\"size\":5},\"status\":{\"ready\":false}}");
        strategy.prepareForUpdate(CTX, changed, old);
        assertTrue(changed.path("status").path("ready").asBoolean());
        assertEquals(5, changed.path("spec").path("size").asInt());
    }

    @Test
    void statusUpdateChangesOnlyTheStatus() throws Exception {
        WidgetStatusStrategy status = new WidgetStatusStrategy();
        ObjectNode old = widget("{\"metadata\":{\"name\":\"w\",\"resourceVersion\":\"5\"},\"spec\":{\"size\":2}}");
        ObjectNode sent = widget("{\"metadata\":{\"name\":\"w\",\"resourceVersion\":\"5\"},\"spec\":{\"size\":9},"
                + "\"status\":{\"ready\":true}}");
        status.prepareForUpdate(CTX, sent, old);
        assertEquals(2, sent.path("spec").path("size").asInt());
        assertTrue(sent.path("status").path("ready").asBoolean());
        assertTrue(status.validateUpdate(CTX, sent, old).isEmpty());
        ObjectNode notBoolean = widget("{\"status\":{\"ready\":\"yes\"}}");
        assertEquals("status.ready", status.validateUpdate(CTX, notBoolean, old).get(0).field());
    }

    private static ObjectNode widget(String json) throws Exception {
        ObjectNode w = (ObjectNode) JSON.readTree(json);
        if (!w.has("metadata")) {
            w.putObject("metadata");
        }
        return w;
    }
}
