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

/** The strategy alone, without a server: defaulting, validation, status and generation. */
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
        assertEquals(1, w.path("metadata").path("generation").asInt());
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
    void updateKeepsStatusAndBumpsGenerationOnSpecChange() throws Exception {
        ObjectNode old = widget("{\"metadata\":{\"generation\":3},\"spec\":{\"size\":2},\"status\":{\"ready\":true}}");
        ObjectNode same = widget("{\"metadata\":{},\"spec\":{\"size\":2},\"status\":{\"ready\":false}}");
        strategy.prepareForUpdate(CTX, same, old);
        assertTrue(same.path("status").path("ready").asBoolean());
        assertEquals(3, same.path("metadata").path("generation").asInt());

        ObjectNode bigger = widget("{\"metadata\":{},\"spec\":{\"size\":5}}");
        strategy.prepareForUpdate(CTX, bigger, old);
        assertEquals(4, bigger.path("metadata").path("generation").asInt());
    }

    private static ObjectNode widget(String json) throws Exception {
        ObjectNode w = (ObjectNode) JSON.readTree(json);
        if (!w.has("metadata")) {
            w.putObject("metadata");
        }
        return w;
    }
}
