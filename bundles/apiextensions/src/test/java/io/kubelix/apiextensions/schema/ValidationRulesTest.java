package io.kubelix.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** CEL validation rules of custom objects, with the messages and paths of kube's examples. */
class ValidationRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s.replace('\'', '"'));
    }

    private static final String SCHEMA = """
            {"type": "object", "properties": {"spec": {"type": "object",
              "x-kubernetes-validations": [
                {"rule": "self.minReplicas <= self.replicas", "message": "replicas should be greater than or equal to minReplicas"},
                {"rule": "self.replicas <= self.maxReplicas",
                 "messageExpression": "'replicas ' + string(self.replicas) + ' exceed ' + string(self.maxReplicas)"},
                {"rule": "!has(self.image) || self.image.contains(':')", "fieldPath": ".image", "reason": "FieldValueForbidden"}],
              "properties": {"replicas": {"type": "integer"}, "minReplicas": {"type": "integer"},
                "maxReplicas": {"type": "integer"}, "image": {"type": "string"},
                "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "Value is immutable"}]}}}}}
            """;

    private static List<String> errors(String obj, String old) throws Exception {
        ValidationRules rules = ValidationRules.of(JSON.readTree(SCHEMA));
        return rules.validate(json(obj), old == null ? null : json(old)).errors().stream().map(FieldError::message).toList();
    }

    @Test
    void rulesReportMessageMessageExpressionReasonAndFieldPath() throws Exception {
        assertEquals(List.of(), errors("{'spec':{'replicas':3,'minReplicas':1,'maxReplicas':5,'image':'a:1'}}", null));
        assertEquals(List.of("spec: Invalid value: replicas should be greater than or equal to minReplicas",
                "spec: Invalid value: replicas 9 exceed 5", "spec.image: Forbidden: failed rule: !has(self.image) || "
                        + "self.image.contains(':')"),
                errors("{'spec':{'replicas':9,'minReplicas':10,'maxReplicas':5,'image':'a'}}", null));
    }

    @Test
    void transitionRulesRunOnUpdatesOnlyAndUnchangedValuesRatchet() throws Exception {
        String spec = "{'spec':{'replicas':1,'minReplicas':1,'maxReplicas':1,'name':'%s'}}";
        assertEquals(List.of(), errors(spec.formatted("a"), null));
        assertEquals(List.of("spec.name: Invalid value: \"b\": Value is immutable"), errors(spec.formatted("b"), spec.formatted("a")));
        ValidationRules.Result ratcheted = ValidationRules.of(JSON.readTree(SCHEMA)).validate(
                json("{'spec':{'replicas':9,'minReplicas':10,'maxReplicas':20,'name':'x'}}"),
                json("{'spec':{'replicas':9,'minReplicas':10,'maxReplicas':20,'name':'x'}}"));
        assertEquals(List.of(), ratcheted.errors());
        assertEquals(List.of("spec: Invalid value: replicas should be greater than or equal to minReplicas"), ratcheted.warnings());
    }

    @Test
    void runtimeErrorsAndCompileErrors() throws Exception {
        ValidationRules rules = ValidationRules.of(json("{'type':'object','x-kubernetes-validations':[{'rule':'self.spec.size > 1'}]}"));
        assertEquals(List.of("<nil>: Invalid value: \"object\": no such key: spec evaluating rule: self.spec.size > 1"),
                rules.validate(json("{}"), null).errors().stream().map(FieldError::message).toList());
        List<FieldError> compile = ValidationRules.compileErrors(json("{'type':'object','x-kubernetes-validations':"
                + "[{'rule':'self.size >'}]}"), "spec.versions[0].schema.openAPIV3Schema");
        assertEquals("spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule", compile.get(0).field());
    }

    @Test
    void rulesAreTypeCheckedAgainstTheSchema() throws Exception {
        String schema = "{'type':'object','properties':{'spec':{'type':'object','properties':{'replicas':{'type':'integer'},"
                + "'image':{'type':'string'}},'x-kubernetes-validations':[{'rule':'self.replica > 0'},"
                + "{'rule':'self.replicas > 0 && self.image.startsWith(\\'nginx\\')','messageExpression':'self.image + 1'}]}},"
                + "'x-kubernetes-validations':[{'rule':'self.metadata.name.size() < 10 && self.spec.replicas < 5'}]}";
        List<String> errs = ValidationRules.compileErrors(json(schema), "spec.versions[0].schema.openAPIV3Schema")
                .stream().map(FieldError::message).toList();
        assertEquals(List.of("spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: "
                        + "Invalid value: \"self.replica > 0\": compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n"
                        + " | self.replica > 0\n | ....^",
                "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].messageExpression: "
                        + "Invalid value: \"self.image + 1\": messageExpression compilation failed: ERROR: <input>:1:12: "
                        + "found no matching overload for '_+_' applied to '(string, int)'\n | self.image + 1\n | ...........^"),
                errs);
    }

    @Test
    void oldSelfNeedsSomethingToCorrelateWith() throws Exception {
        List<String> errs = ValidationRules.compileErrors(JSON.readTree("""
                {"type": "object", "properties": {
                  "tags": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 10,
                    "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}},
                  "ports": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "x-kubernetes-validations": [{"rule": "self == oldSelf"}],
                      "properties": {"name": {"type": "string"}}}}}}
                """), "s").stream().map(FieldError::message).toList();
        assertEquals(List.of("s.properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": "
                + "oldSelf cannot be used on the uncorrelatable portion of the schema within s.properties[tags]"), errs);
    }

    @Test
    void rulesReachPropertiesWhoseNamesAreEscaped() throws Exception {
        ValidationRules rules = ValidationRules.of(json("{'type':'object','properties':{'spec':{'type':'object',"
                + "'properties':{'max-replicas':{'type':'integer'},'namespace':{'type':'string'}},"
                + "'x-kubernetes-validations':[{'rule':'self.max__dash__replicas <= 10','message':'at most 10'},"
                + "{'rule':'self.__namespace__ == oldSelf.__namespace__','message':'namespace is immutable'}]}}}"));
        assertEquals(List.of(), ValidationRules.compileErrors(json("{'type':'object','properties':{'spec':{'type':'object',"
                + "'properties':{'max-replicas':{'type':'integer'}},"
                + "'x-kubernetes-validations':[{'rule':'self.max__dash__replicas <= 10'}]}}}"), "schema"));
        assertEquals(List.of(), rules.validate(json("{'spec':{'max-replicas':5,'namespace':'a'}}"), null).errors());
        assertEquals(List.of("spec: Invalid value: at most 10"),
                rules.validate(json("{'spec':{'max-replicas':20,'namespace':'a'}}"), null).errors().stream()
                        .map(FieldError::message).toList());
        assertEquals(List.of("spec: Invalid value: namespace is immutable"),
                rules.validate(json("{'spec':{'max-replicas':1,'namespace':'b'}}"),
                        json("{'spec':{'max-replicas':1,'namespace':'a'}}")).errors().stream().map(FieldError::message).toList());
    }
}
