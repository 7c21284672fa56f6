package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Expressions checked against the types of an OpenAPI schema, as kube checks CRD validation rules. */
class SchemaDeclTypesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s.replace('\'', '"'));
    }

    private static CelEnvironment env(String schema, boolean root) throws Exception {
        JsonNode s = json(schema);
        return CelEnvironment.builder().variable("self", s, root).variable("oldSelf", s, root).build();
    }

    @Test
    void fieldsAreCheckedAgainstTheSchema() throws Exception {
        CelEnvironment env = env("{'type':'object','properties':{'replicas':{'type':'integer'},'name':{'type':'string'},"
                + "'labels':{'type':'object','additionalProperties':{'type':'string'}},"
                + "'ports':{'type':'array','items':{'type':'object','properties':{'port':{'type':'integer'}}}},"
                + "'any':{'x-kubernetes-int-or-string':true}}}", false);
        env.compile("self.replicas > 1 && self.name.startsWith('a') && self.labels['x'] == 'y' && self.ports.all(p, p.port > 0)");
        env.compile("has(self.any) && self.any == 1 || self.any == 'x'");
        env.compile("self == oldSelf");
        CelCompileException undefined = assertThrows(CelCompileException.class, () -> env.compile("self.replica > 1"));
        assertTrue(undefined.getMessage().contains("ERROR: <input>:1:5: undefined field 'replica'"), undefined.getMessage());
        CelCompileException types = assertThrows(CelCompileException.class, () -> env.compile("self.name > 1"));
        assertTrue(types.getMessage().contains("found no matching overload for '_>_' applied to '(string, int)'"), types.getMessage());
        assertThrows(CelCompileException.class, () -> env.compile("self.ports.all(p, p.name == 'x')"));
    }

    @Test
    void aResourceRootHasTypeAndObjectMeta() throws Exception {
        CelEnvironment env = env("{'type':'object','properties':{'spec':{'type':'object'}}}", true);
        env.compile("self.metadata.name.startsWith('a') && self.kind == 'Widget' && self.apiVersion != ''");
        assertThrows(CelCompileException.class, () -> env.compile("self.metadata.labels.size() > 0"));
        CelExpression rule = env.compile("self.metadata.name == 'a' && has(self.spec)");
        assertEquals(true, rule.evaluate(Map.of("self", json("{'metadata':{'name':'a'},'spec':{}}")), 1000).value());
    }

    @Test
    void propertyNamesAreEscapedAsKubeEscapesThem() throws Exception {
        JsonNode schema = json("{'type':'object','properties':{'max-replicas':{'type':'integer'},"
                + "'namespace':{'type':'string'},'a.b/c':{'type':'string'},'x__y':{'type':'string'},"
                + "'items':{'type':'array','items':{'type':'object','properties':{'port-name':{'type':'string'}}}},"
                + "'labels':{'type':'object','additionalProperties':{'type':'string'}},'héllo':{'type':'string'}}}");
        CelEnvironment env = CelEnvironment.builder().variable("self", schema, false).build();
        CelExpression rule = env.compile("self.max__dash__replicas == 3 && self.__namespace__ == 'ns'"
                + " && self.a__dot__b__slash__c == 'v' && self.x__underscores__y == 'u'"
                + " && self.items.all(i, i.port__dash__name == 'http') && self.labels['app-name'] == 'web'");
        JsonNode value = json("{'max-replicas':3,'namespace':'ns','a.b/c':'v','x__y':'u',"
                + "'items':[{'port-name':'http'}],'labels':{'app-name':'web'}}");
        assertEquals(true, rule.evaluate(Map.of("self", CelValues.fromJson(value, schema)), 10_000).value());

        // the unescaped names are not fields of the type, and a name that cannot be escaped is no field at all
        assertThrows(CelCompileException.class, () -> env.compile("self.namespace == 'ns'"));
        assertThrows(CelCompileException.class, () -> env.compile("has(self.h__llo)"));
    }

    @Test
    void celNamesFollowKubesEscapingRules() {
        assertEquals("foo", CelNames.escape("foo").orElseThrow());
        assertEquals("__in__", CelNames.escape("in").orElseThrow());
        assertEquals("a__dash__b__dot__c__slash__d", CelNames.escape("a-b.c/d").orElseThrow());
        assertEquals("__underscores___x", CelNames.escape("___x").orElseThrow());
        assertEquals("_x", CelNames.escape("_x").orElseThrow());
        assertEquals("__dash__x", CelNames.escape("-x").orElseThrow());
        assertTrue(CelNames.escape("1x").isEmpty());
        assertTrue(CelNames.escape("").isEmpty());
        assertTrue(CelNames.escape("a b").isEmpty());
        assertTrue(CelNames.escape("a:b").isEmpty());
    }
}
