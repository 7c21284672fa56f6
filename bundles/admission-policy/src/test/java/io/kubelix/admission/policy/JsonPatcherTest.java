package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JSONPatch mutations: the operations a CEL list of JSONPatch literals makes, applied as kube applies them. */
class JsonPatcherTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode obj(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static Map<String, Object> op(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void operationsApplyInOrder() throws Exception {
        ObjectNode cm = obj("{'metadata':{'name':'c','labels':{'a':'1'}},'data':{'x':'1','y':'2'}}");
        ObjectNode patched = JsonPatcher.patch(cm, List.of(
                op("op", "add", "path", "/metadata/labels/example.com~1team", "value", "db"),
                op("op", "replace", "path", "/data/x", "value", "10"),
                op("op", "remove", "path", "/data/y"),
                op("op", "copy", "from", "/data/x", "path", "/data/z")));
        assertEquals(obj("{'metadata':{'name':'c','labels':{'a':'1','example.com/team':'db'}},'data':{'x':'10','z':'10'}}"),
                patched);
        assertEquals(obj("{'metadata':{'name':'c','labels':{'a':'1'}},'data':{'x':'1','y':'2'}}"), cm, "the object is not changed");
    }

    @Test
    void valuesKeepTheirJsonTypes() throws Exception {
        ObjectNode d = obj("{'spec':{'replicas':1}}");
        ObjectNode patched = JsonPatcher.patch(d, List.of(op("op", "replace", "path", "/spec/replicas", "value", 3L),
                op("op", "add", "path", "/spec/template", "value", Map.of("metadata", Map.of("labels", Map.of("a", "b")))),
                op("op", "add", "path", "/spec/list", "value", List.of(1L, true, "s"))));
        assertEquals(obj("{'spec':{'replicas':3,'template':{'metadata':{'labels':{'a':'b'}}},'list':[1,true,'s']}}").toString(),
                patched.toString());
    }

    @Test
    void aFailedTestLeavesTheObjectAsItWas() throws Exception {
        ObjectNode cm = obj("{'data':{'x':'1'}}");
        ObjectNode patched = JsonPatcher.patch(cm, List.of(op("op", "test", "path", "/data/x", "value", "2"),
                op("op", "replace", "path", "/data/x", "value", "3")));
        assertSame(cm, patched);
        assertEquals(obj("{'data':{'x':'3'}}"), JsonPatcher.patch(cm, List.of(op("op", "test", "path", "/data/x", "value", "1"),
                op("op", "replace", "path", "/data/x", "value", "3"))));
    }

    @Test
    void otherFailuresAreErrors() throws Exception {
        CompiledPolicy.PolicyException e = assertThrows(CompiledPolicy.PolicyException.class,
                () -> JsonPatcher.patch(obj("{'data':{}}"), List.of(op("op", "remove", "path", "/data/missing"))));
        assertTrue(e.getMessage().startsWith("JSONPath: "), e.getMessage());
        assertThrows(CompiledPolicy.PolicyException.class,
                () -> JsonPatcher.patch(obj("{}"), List.of(op("op", "move", "path", "/a"))));
        assertEquals("type mismatch: JSONPatchType.expression should evaluate to array",
                assertThrows(CompiledPolicy.PolicyException.class, () -> JsonPatcher.patch(obj("{}"), "x")).getMessage());
    }
}
