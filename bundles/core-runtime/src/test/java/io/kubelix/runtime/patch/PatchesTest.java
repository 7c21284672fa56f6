package io.kubelix.runtime.patch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PatchesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** RFC 7386 Appendix A, the examples whose target and patch are objects. */
    @ParameterizedTest(name = "{0} + {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"a\":\"b\"}                     | {\"a\":\"c\"}                            | {\"a\":\"c\"}",
            "{\"a\":\"b\"}                     | {\"b\":\"c\"}                            | {\"a\":\"b\",\"b\":\"c\"}",
            "{\"a\":\"b\"}                     | {\"a\":null}                             | {}",
            "{\"a\":\"b\",\"b\":\"c\"}         | {\"a\":null}                             | {\"b\":\"c\"}",
            "{\"a\":[\"b\"]}                   | {\"a\":\"c\"}                            | {\"a\":\"c\"}",
            "{\"a\":\"c\"}                     | {\"a\":[\"b\"]}                          | {\"a\":[\"b\"]}",
            "{\"a\":{\"b\":\"c\"}}             | {\"a\":{\"b\":\"d\",\"c\":null}}         | {\"a\":{\"b\":\"d\"}}",
            "{\"a\":[{\"b\":\"c\"}]}           | {\"a\":[1]}                              | {\"a\":[1]}",
            "{\"e\":null}                      | {\"a\":1}                                | {\"e\":null,\"a\":1}",
            "{}                                | {\"a\":{\"bb\":{\"ccc\":null}}}          | {\"a\":{\"bb\":{}}}",
    })
    void mergePatchRfc7386Examples(String original, String patch, String result) {
        assertEquals(json(result), Patches.apply(Patches.MERGE_PATCH, json(patch), obj(original)));
    }

    @Test
    void mergePatchDoesNotChangeTheOriginal() {
        ObjectNode original = obj("{\"a\":{\"b\":\"c\"}}");

        Patches.apply(Patches.MERGE_PATCH, json("{\"a\":{\"b\":null}}"), original);

        assertEquals(json("{\"a\":{\"b\":\"c\"}}"), original);
    }

    @Test
    void mergePatchThatIsNotAnObjectIsBadRequest() {
        StatusException e = assertThrows(StatusException.class,
                () -> Patches.apply(Patches.MERGE_PATCH, json("[\"c\"]"), obj("{\"a\":\"b\"}")));

        assertEquals(400, e.code());
    }

    @Test
    void jsonPatchAddRemoveReplace() {
        ObjectNode original = obj("{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"1\"}},\"data\":{\"k\":\"v\"}}");
        JsonNode patch = json("[{\"op\":\"add\",\"path\":\"/data/n\",\"value\":\"new\"},"
                + "{\"op\":\"remove\",\"path\":\"/metadata/labels/x\"},"
                + "{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"w\"},"
                + "{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"a\"}]");

        ObjectNode result = Patches.apply(Patches.JSON_PATCH, patch, original);

        assertEquals(json("{\"metadata\":{\"name\":\"a\",\"labels\":{}},\"data\":{\"k\":\"w\",\"n\":\"new\"}}"), result);
        assertEquals("v", original.path("data").path("k").asText(), "the original is left alone");
    }

    @Test
    void jsonPatchFailedTestIsUnprocessable() {
        JsonNode patch = json("[{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"other\"},"
                + "{\"op\":\"replace\",\"path\":\"/metadata/name\",\"value\":\"b\"}]");

        StatusException e = assertThrows(StatusException.class,
                () -> Patches.apply(Patches.JSON_PATCH, patch, obj("{\"metadata\":{\"name\":\"a\"}}")));

        assertEquals(422, e.code());
        assertEquals(StatusReason.INVALID, e.reason());
    }

    @Test
    void jsonPatchOnAMissingPathIsUnprocessable() {
        JsonNode patch = json("[{\"op\":\"remove\",\"path\":\"/data/missing\"}]");

        StatusException e = assertThrows(StatusException.class,
                () -> Patches.apply(Patches.JSON_PATCH, patch, obj("{\"data\":{\"k\":\"v\"}}")));

        assertEquals(422, e.code());
    }

    @Test
    void jsonPatchReplacingAMissingMemberIsUnprocessable() {
        JsonNode patch = json("[{\"op\":\"replace\",\"path\":\"/data/missing\",\"value\":\"x\"}]");

        StatusException e = assertThrows(StatusException.class,
                () -> Patches.apply(Patches.JSON_PATCH, patch, obj("{\"data\":{\"k\":\"v\"}}")));

        assertEquals(422, e.code());
    }

    @Test
    void jsonPatchThatIsNotAListIsBadRequest() {
        StatusException e = assertThrows(StatusException.class,
                () -> Patches.apply(Patches.JSON_PATCH, json("{\"op\":\"add\"}"), obj("{}")));

        assertEquals(400, e.code());
    }

    @Test
    void strategicMergeMergesMapsAndDeletesNulls() {
        ObjectNode original = obj("{\"metadata\":{\"labels\":{\"a\":\"1\",\"b\":\"2\"}},\"data\":{\"k\":\"v\"}}");

        ObjectNode result = Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                json("{\"metadata\":{\"labels\":{\"b\":null,\"c\":\"3\"}}}"), original);

        assertEquals(json("{\"metadata\":{\"labels\":{\"a\":\"1\",\"c\":\"3\"}},\"data\":{\"k\":\"v\"}}"), result);
    }

    @Test
    void strategicMergeReplacesListsWithoutMergeKeys() {
        ObjectNode original = obj("{\"spec\":{\"args\":[\"a\",\"b\"]}}");

        ObjectNode result = Patches.apply(Patches.STRATEGIC_MERGE_PATCH, json("{\"spec\":{\"args\":[\"c\"]}}"), original);

        assertEquals(json("{\"spec\":{\"args\":[\"c\"]}}"), result);
    }

    @Test
    void strategicMergePatchReplaceDirectiveReplacesTheMap() {
        ObjectNode original = obj("{\"data\":{\"a\":\"1\",\"b\":\"2\"},\"keep\":true}");

        ObjectNode result = Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                json("{\"data\":{\"$patch\":\"replace\",\"c\":\"3\"}}"), original);

        assertEquals(json("{\"data\":{\"c\":\"3\"},\"keep\":true}"), result);
    }

    @Test
    void strategicMergePatchDeleteDirectiveDeletesTheMap() {
        ObjectNode original = obj("{\"spec\":{\"template\":{\"x\":1},\"replicas\":2}}");

        ObjectNode result = Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                json("{\"spec\":{\"template\":{\"$patch\":\"delete\"}}}"), original);

        assertEquals(json("{\"spec\":{\"replicas\":2}}"), result);
    }

    @Test
    void strategicMergeRetainKeysClearsFieldsNotListed() {
        // The example of kube's retainKeys design: switching a Deployment's strategy to Recreate.
        ObjectNode original = obj("{\"spec\":{\"strategy\":{\"type\":\"RollingUpdate\","
                + "\"rollingUpdate\":{\"maxSurge\":1}}}}");

        ObjectNode result = Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                json("{\"spec\":{\"strategy\":{\"$retainKeys\":[\"type\"],\"type\":\"Recreate\"}}}"), original);

        assertEquals(json("{\"spec\":{\"strategy\":{\"type\":\"Recreate\"}}}"), result);
    }

    @Test
    void strategicMergeRetainKeysKeepsListedFieldsTheOriginalHas() {
        ObjectNode original = obj("{\"volume\":{\"name\":\"v\",\"hostPath\":{\"path\":\"/x\"},\"emptyDir\":{}}}");

        ObjectNode result = Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                json("{\"volume\":{\"$retainKeys\":[\"name\",\"emptyDir\"]}}"), original);

        assertEquals(json("{\"volume\":{\"name\":\"v\",\"emptyDir\":{}}}"), result);
    }

    @Test
    void strategicMergeRetainKeysMustListEveryPatchedField() {
        // strategicpatch.applyRetainKeysDirective: ErrBadPatchFormatForRetainKeys, a 400.
        JsonNode patch = json("{\"spec\":{\"strategy\":{\"$retainKeys\":[\"type\"],\"type\":\"Recreate\","
                + "\"rollingUpdate\":{\"maxSurge\":2}}}}");

        StatusException e = assertThrows(StatusException.class, () -> Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                patch, obj("{\"spec\":{\"strategy\":{\"type\":\"RollingUpdate\"}}}")));

        assertEquals(400, e.code());
    }

    @Test
    void strategicMergeRetainKeysThatIsNotAListIsBadRequest() {
        StatusException e = assertThrows(StatusException.class, () -> Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                json("{\"spec\":{\"$retainKeys\":\"type\"}}"), obj("{\"spec\":{}}")));

        assertEquals(400, e.code());
    }

    @Test
    void mergePatchTreatsDirectivesAsOrdinaryKeys() {
        // Plain merge patch knows no directives: "$patch" is an ordinary key there.
        ObjectNode result = Patches.apply(Patches.MERGE_PATCH, json("{\"data\":{\"$patch\":\"replace\"}}"),
                obj("{\"data\":{\"a\":\"1\"}}"));

        assertEquals(json("{\"data\":{\"a\":\"1\",\"$patch\":\"replace\"}}"), result);
    }

    @Test
    void strategicMergeStoresNoDirectives() {
        ObjectNode result = Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                json("{\"data\":{\"$patch\":\"replace\",\"inner\":{\"$patch\":\"replace\",\"x\":\"1\"}}}"),
                obj("{\"data\":{\"a\":\"1\"}}"));

        assertEquals(json("{\"data\":{\"inner\":{\"x\":\"1\"}}}"), result);
    }

    @Test
    void unsupportedPatchTypeIsUnsupportedMediaType() {
        StatusException e = assertThrows(StatusException.class,
                () -> Patches.apply("application/json", json("{}"), obj("{}")));

        assertEquals(415, e.code());
        assertEquals(StatusReason.UNSUPPORTED_MEDIA_TYPE, e.reason());
    }

    private static ObjectNode obj(String s) {
        return (ObjectNode) json(s);
    }

    private static JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}
