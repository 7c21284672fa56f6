package io.kubelix.api.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LabelSelectorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    @Test
    void formatsAsKubesSelectorStringSortedByKey() throws Exception {
        JsonNode s = json("{\"matchLabels\":{\"z\":\"1\",\"app\":\"web\"},\"matchExpressions\":["
                + "{\"key\":\"tier\",\"operator\":\"NotIn\",\"values\":[\"b\",\"a\"]},"
                + "{\"key\":\"env\",\"operator\":\"In\",\"values\":[\"prod\"]},"
                + "{\"key\":\"canary\",\"operator\":\"Exists\"},{\"key\":\"old\",\"operator\":\"DoesNotExist\"}]}");
        assertEquals("app=web,canary,env in (prod),!old,tier notin (a,b),z=1", LabelSelectors.format(s));
        assertEquals("", LabelSelectors.format(json("{}")));
        assertEquals("", LabelSelectors.format(null));
    }

    @Test
    void matchesLabelsAsKubeDoes() throws Exception {
        JsonNode s = json("{\"matchLabels\":{\"app\":\"web\"},\"matchExpressions\":["
                + "{\"key\":\"tier\",\"operator\":\"NotIn\",\"values\":[\"db\"]},{\"key\":\"old\",\"operator\":\"DoesNotExist\"}]}");
        assertTrue(LabelSelectors.matches(s, json("{\"app\":\"web\"}")));
        assertTrue(LabelSelectors.matches(s, json("{\"app\":\"web\",\"tier\":\"fe\"}")));
        assertFalse(LabelSelectors.matches(s, json("{\"app\":\"web\",\"tier\":\"db\"}")));
        assertFalse(LabelSelectors.matches(s, json("{\"app\":\"web\",\"old\":\"\"}")));
        assertFalse(LabelSelectors.matches(s, json("{\"app\":\"api\"}")));
        assertFalse(LabelSelectors.matches(s, null));
        assertTrue(LabelSelectors.matches(json("{}"), null), "an empty selector selects everything");
        assertFalse(LabelSelectors.matches(null, json("{\"app\":\"web\"}")), "a missing selector selects nothing");
    }

    @Test
    void malformedExpressionsAreRejected() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> LabelSelectors.format(json(
                "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Like\",\"values\":[\"x\"]}]}")));
        assertThrows(IllegalArgumentException.class, () -> LabelSelectors.format(json(
                "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\"}]}")));
        assertThrows(IllegalArgumentException.class, () -> LabelSelectors.format(json(
                "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\",\"values\":[\"x\"]}]}")));
    }
}
