package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigMapStrategyTest {
    private final ConfigMapStrategy strategy = new ConfigMapStrategy();
    private final RequestContext ctx = RequestContext.system("ns");

    /** As a Secret's data: binaryData that is not base64 fails decoding a create or PUT (400). */
    @Test
    void aCreateOrPutOfBinaryDataThatIsNotBase64IsABadRequest() {
        StatusException e = assertThrows(StatusException.class, () -> strategy.prepareForCreate(
                TestContexts.request("create", "configmaps"), obj("{'binaryData':{'b':'%%%%'}}")));
        assertEquals(400, e.code());
        assertEquals("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: illegal base64 data at input "
                + "byte 0", e.getMessage());
        strategy.prepareForCreate(TestContexts.request("create", "configmaps"), obj("{'binaryData':{'b':'AAEC'}}"));
    }

    private static List<String> messages(List<FieldError> errs) {
        return errs.stream().map(FieldError::message).toList();
    }

    @Test
    void validConfigMapPasses() {
        ObjectNode cm = obj("{'metadata':{'name':'c'},'data':{'a.b':'x','C_D':''},'binaryData':{'bin':'AAE='}}");
        assertEquals(List.of(), strategy.validate(ctx, cm));
    }

    @Test
    void invalidDataKeyIsReportedWithKubesPathAndMessage() {
        List<FieldError> errs = strategy.validate(ctx, obj("{'data':{'a/b':'x'}}"));
        assertEquals(1, errs.size());
        FieldError e = errs.get(0);
        assertEquals(FieldError.Type.INVALID, e.type());
        assertEquals("data[a/b]", e.field());
        assertEquals("data[a/b]: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, "
                + "'-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
                + "'[-._a-zA-Z0-9]+')", e.message());
    }

    @Test
    void binaryDataKeysAndValuesAreChecked() {
        List<FieldError> errs = strategy.validate(ctx, obj("{'binaryData':{'..x':'AAE=','ok':'not base64'}}"));
        assertEquals(List.of("binaryData[..x]: Invalid value: \"..x\": must not start with '..'",
                "binaryData[ok]: Invalid value: illegal base64 data at input byte 3"), messages(errs));
    }

    @Test
    void aKeyMayNotBeInBothMaps() {
        List<FieldError> errs = strategy.validate(ctx, obj("{'data':{'k':'v'},'binaryData':{'k':'AAE='}}"));
        assertEquals(List.of("data[k]: Invalid value: \"k\": duplicate of key present in binaryData"), messages(errs));
    }

    @Test
    void totalSizeIsLimitedToOneMebibyte() {
        ObjectNode cm = obj("{'data':{}}");
        cm.with("data").put("a", "x".repeat(ConfigMapValidation.MAX_SIZE / 2));
        cm.with("data").put("b", "x".repeat(ConfigMapValidation.MAX_SIZE / 2));
        assertEquals(List.of(), strategy.validate(ctx, cm));
        cm.with("data").put("c", "x");
        List<FieldError> errs = strategy.validate(ctx, cm);
        assertEquals(1, errs.size());
        assertEquals(FieldError.Type.TOO_LONG, errs.get(0).type());
        assertEquals("", errs.get(0).field());
        assertEquals(": Too long: must have at most 1048576 bytes", errs.get(0).message());
    }

    @Test
    void nonStringValuesAreInvalid() {
        assertEquals(List.of("data[n]: Invalid value: must be a string"),
                messages(strategy.validate(ctx, obj("{'data':{'n':1}}"))));
        assertEquals(List.of("data: Invalid value: must be a map of string keys to string values"),
                messages(strategy.validate(ctx, obj("{'data':['x']}"))));
    }

    @Test
    void immutableConfigMapRejectsDataChangesAndUnsetting() {
        ObjectNode old = obj("{'immutable':true,'data':{'a':'1'},'binaryData':{'b':'AAE='}}");
        ObjectNode changed = obj("{'immutable':false,'data':{'a':'2'},'binaryData':{'b':'AAI='}}");
        List<FieldError> errs = strategy.validateUpdate(ctx, changed, old);
        assertEquals(List.of(
                "immutable: Forbidden: field is immutable when `immutable` is set",
                "data: Forbidden: field is immutable when `immutable` is set",
                "binaryData: Forbidden: field is immutable when `immutable` is set"), messages(errs));

        // Same content (a re-wrapped base64 is the same bytes) with labels changed is fine.
        ObjectNode same = obj("{'metadata':{'labels':{'x':'y'}},'immutable':true,'data':{'a':'1'},'binaryData':{'b':'AA\\nE='}}");
        assertEquals(List.of(), strategy.validateUpdate(ctx, same, old));
        // Dropping the flag alone is refused too.
        assertEquals(List.of("immutable: Forbidden: field is immutable when `immutable` is set"),
                messages(strategy.validateUpdate(ctx, obj("{'data':{'a':'1'},'binaryData':{'b':'AAE='}}"), old)));
    }

    @Test
    void mutableConfigMapMayChangeAndBecomeImmutable() {
        ObjectNode old = obj("{'data':{'a':'1'}}");
        assertEquals(List.of(), strategy.validateUpdate(ctx, obj("{'immutable':true,'data':{'a':'2'}}"), old));
    }

    @Test
    void canonicalizeStoresCanonicalBase64AndDropsEmptyMaps() {
        ObjectNode cm = obj("{'data':{},'binaryData':{'b':'AA\\r\\nE=','n':null}}");
        strategy.canonicalize(cm);
        assertFalse(cm.has("data"));
        assertEquals("AAE=", cm.path("binaryData").path("b").asText());
        assertTrue(cm.path("binaryData").path("n").isTextual());
    }
}
