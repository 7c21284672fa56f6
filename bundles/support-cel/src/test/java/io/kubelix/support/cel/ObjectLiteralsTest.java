package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Object and JSONPatch literals of mutating admission policies, as the plugin reads their results. */
class ObjectLiteralsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CelEnvironment ENV = CelEnvironment.builder()
            .variable("object", CelEnvironment.Type.DYN)
            .variable("params", CelEnvironment.Type.DYN)
            .objectLiterals()
            .build();

    private static Map<String, Object> bindings() throws Exception {
        return Map.of("object", JSON.readTree("{\"metadata\":{\"name\":\"web\",\"labels\":{\"a\":\"b\"}},\"spec\":{\"replicas\":1}}"),
                "params", JSON.readTree("{\"data\":{\"replicas\":\"4\"}}"));
    }

    private static String eval(String source) throws Exception {
        return CelValues.toJson(ENV.compile(source).evaluate(bindings(), CelEnvironment.PER_CALL_COST_LIMIT).value()).toString();
    }

    @Test
    void objectLiteralsAreMapsOfTheirFields() throws Exception {
        CelExpression e = ENV.compile("Object{spec: Object.spec{replicas: int(params.data.replicas), "
                + "template: Object.spec.template{metadata: Object.spec.template.metadata{labels: {'app': object.metadata.name}}}}}");
        assertEquals("Object", e.resultTypeSignature());
        assertEquals("{\"spec\":{\"replicas\":4,\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}}}}}",
                CelValues.toJson(e.evaluate(bindings(), CelEnvironment.PER_CALL_COST_LIMIT).value()).toString());
        assertEquals("{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}",
                eval("Object{spec: Object.spec{containers: [Object.spec.containers{name: 'c'}]}}"));
    }

    @Test
    void jsonPatchLiteralsAndEscapedKeys() throws Exception {
        CelExpression e = ENV.compile("[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('example.com/x~y'), "
                + "value: 'v'}, JSONPatch{op: 'replace', path: '/spec/replicas', value: object.spec.replicas + 2}]");
        assertEquals("list(JSONPatch)", e.resultTypeSignature());
        assertEquals("[{\"op\":\"add\",\"path\":\"/metadata/labels/example.com~1x~0y\",\"value\":\"v\"},"
                + "{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}]",
                CelValues.toJson(e.evaluate(bindings(), CelEnvironment.PER_CALL_COST_LIMIT).value()).toString());
    }

    @Test
    void literalsInsideComprehensionsAndConditionals() throws Exception {
        assertEquals("{\"metadata\":{\"labels\":{\"a\":\"b!\"}}}", eval("Object{metadata: Object.metadata{labels: "
                + "object.metadata.labels.map(k, k).size() > 0 ? {'a': object.metadata.labels.a + '!'} : {}}}"));
        assertEquals("[{\"op\":\"test\",\"path\":\"/a\"}]", eval("['a'].map(p, JSONPatch{op: 'test', path: '/' + p})"));
    }

    @Test
    void typeNamesFollowTheFieldPath() {
        CelCompileException e = assertThrows(CelCompileException.class,
                () -> ENV.compile("Object{spec: Object.spec{selector: Object.spec.wrong{}}}"));
        assertEquals("type mismatch: unexpected type name \"Object.spec.wrong\", expected \"Object.spec.selector\", "
                + "which matches field name path from root Object type", e.getMessage());
        assertTrue(assertThrows(CelCompileException.class, () -> ENV.compile("JSONPatch{op: 1}")).getMessage()
                .contains("expected type of field 'op' is 'string' but provided type is 'int'"));
    }
}
