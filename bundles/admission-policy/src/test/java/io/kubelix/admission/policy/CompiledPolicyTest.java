package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.support.cel.CelValues;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A policy's expressions judged as kube judges them, with kube's messages. */
class CompiledPolicyTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static CompiledPolicy policy(String spec) throws Exception {
        return new CompiledPolicy((ObjectNode) JSON.readTree(
                "{\"metadata\":{\"name\":\"p\",\"resourceVersion\":\"1\"},\"spec\":" + spec + "}"));
    }

    private static Map<String, Object> bindings(String object, String params) throws Exception {
        Map<String, Object> vars = new HashMap<>();
        vars.put("object", CelValues.fromJson(JSON.readTree(object)));
        vars.put("oldObject", CelValues.fromJson(null));
        vars.put("request", CelValues.fromJson(JSON.readTree("{\"operation\":\"CREATE\"}")));
        vars.put("params", CelValues.fromJson(params == null ? null : JSON.readTree(params)));
        vars.put("namespaceObject", CelValues.fromJson(null));
        return vars;
    }

    private static List<CompiledPolicy.Decision> run(CompiledPolicy p, Map<String, Object> vars) {
        return p.validate(vars, p.bindVariables(vars));
    }

    @Test
    void aFailedValidationDeniesWithItsMessageOrItsExpression() throws Exception {
        CompiledPolicy p = policy("""
                {"validations":[
                  {"expression":"object.data.size() <= params.data.maxKeys","messageExpression":"'at most ' + params.data.maxKeys + ' keys'"},
                  {"expression":"has(object.metadata.labels) && 'team' in object.metadata.labels","message":"a team label is required","reason":"Forbidden"},
                  {"expression":"object.metadata.name.startsWith('cm-')"}]}""");
        List<CompiledPolicy.Decision> d = run(p, bindings(
                "{\"metadata\":{\"name\":\"x\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}", "{\"data\":{\"maxKeys\":\"1\"}}"));
        // params.data.maxKeys is a string: comparing it with an int has no overload, an error under Fail.
        assertEquals(CompiledPolicy.Outcome.ERROR, d.get(0).outcome());
        assertTrue(d.get(0).message().startsWith("expression 'object.data.size() <= params.data.maxKeys' resulted in error: "),
                d.get(0).message());
        assertEquals(new CompiledPolicy.Decision(CompiledPolicy.Outcome.DENY, "a team label is required", "Forbidden"), d.get(1));
        assertEquals(new CompiledPolicy.Decision(CompiledPolicy.Outcome.DENY,
                "failed expression: object.metadata.name.startsWith('cm-')", "Invalid"), d.get(2));
    }

    @Test
    void auditAnnotationsPublishStringsLeaveOutNullAndEmptyAndFailOnOtherTypes() throws Exception {
        CompiledPolicy p = policy("""
                {"auditAnnotations":[
                  {"key":"size","valueExpression":"'  has ' + string(object.data.size()) + ' keys '"},
                  {"key":"none","valueExpression":"null"},
                  {"key":"empty","valueExpression":"' '"},
                  {"key":"count","valueExpression":"object.data.size()"},
                  {"key":"missing","valueExpression":"object.spec.x"}]}""");
        Map<String, Object> vars = bindings("{\"metadata\":{\"name\":\"x\"},\"data\":{\"a\":\"1\"}}", null);
        List<CompiledPolicy.AuditResult> r = p.auditAnnotations(vars, p.bindVariables(vars));
        assertEquals(3, r.size(), r::toString);
        assertEquals(new CompiledPolicy.AuditResult("size", "has 1 keys", null), r.get(0));
        assertEquals(new CompiledPolicy.AuditResult("count", null, "valueExpression 'object.data.size()' resulted in "
                + "unsupported return type: int. Return type must be either string or null."), r.get(1));
        assertEquals("missing", r.get(2).key());
        assertTrue(r.get(2).error().startsWith("expression 'object.spec.x' resulted in error: "), r.get(2)::toString);

        CompiledPolicy ignoring = policy("""
                {"failurePolicy":"Ignore","auditAnnotations":[{"key":"missing","valueExpression":"object.spec.x"},
                  {"key":"count","valueExpression":"1"}]}""");
        assertEquals(List.of(new CompiledPolicy.AuditResult("count", null, "valueExpression '1' resulted in "
                + "unsupported return type: int. Return type must be either string or null.")),
                ignoring.auditAnnotations(vars, ignoring.bindVariables(vars)), "an error is left out, a wrong type is not");
    }

    @Test
    void auditAnnotationsOfOnePolicyAreJoinedByKey() {
        AuditAnnotations a = new AuditAnnotations();
        a.add("size", "small");
        a.add("size", "large");
        a.add("size", "small");
        assertEquals("[{\"message\":\"too big\",\"policy\":\"p\",\"binding\":\"b\",\"expressionIndex\":1,"
                + "\"validationActions\":[\"Audit\"]}]", AuditAnnotations.validationFailure("too big", "p", "b", 1,
                JSON.createArrayNode().add("Audit")));
        Map<String, String> published = new HashMap<>();
        a.publish("p", new io.kubelix.api.admission.AdmissionAttributes(io.kubelix.api.admission.Operation.CREATE,
                new io.kubelix.api.schema.GroupVersionKind("", "v1", "ConfigMap"),
                new io.kubelix.api.schema.GroupVersionResource("", "v1", "configmaps"), "", "default", "c", null, null,
                false, new io.kubelix.api.request.RequestContext() {
                    @Override
                    public io.kubelix.api.request.UserInfo user() {
                        return null;
                    }

                    @Override
                    public io.kubelix.api.request.RequestInfo requestInfo() {
                        return null;
                    }

                    @Override
                    public String namespace() {
                        return "default";
                    }

                    @Override
                    public void addWarning(String message) {
                    }

                    @Override
                    public void addAuditAnnotation(String key, String value) {
                        published.put(key, value);
                    }
                }));
        assertEquals(Map.of("p/size", "small, large"), published);
    }

    @Test
    void messageExpressionsAndVariablesSeeTheRequest() throws Exception {
        CompiledPolicy p = policy("""
                {"variables":[{"name":"keys","expression":"object.data.size()"},{"name":"max","expression":"int(params.data.maxKeys)"}],
                 "validations":[{"expression":"variables.keys <= variables.max",
                                 "messageExpression":"'configmap ' + object.metadata.name + ' has ' + string(variables.keys) + ' keys, at most ' + string(variables.max) + ' allowed'"}]}""");
        assertEquals(List.of(new CompiledPolicy.Decision(CompiledPolicy.Outcome.DENY,
                        "configmap x has 2 keys, at most 1 allowed", "Invalid")),
                run(p, bindings("{\"metadata\":{\"name\":\"x\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}", "{\"data\":{\"maxKeys\":\"1\"}}")));
        assertEquals(CompiledPolicy.Outcome.ADMIT, run(p, bindings(
                "{\"metadata\":{\"name\":\"x\"},\"data\":{\"a\":\"1\"}}", "{\"data\":{\"maxKeys\":\"1\"}}")).get(0).outcome());
    }

    @Test
    void underFailurePolicyIgnoreErrorsAdmit() throws Exception {
        CompiledPolicy p = policy("{\"failurePolicy\":\"Ignore\",\"validations\":[{\"expression\":\"object.spec.replicas > 1\"}]}");
        assertEquals(CompiledPolicy.Outcome.ADMIT, run(p, bindings("{\"metadata\":{}}", null)).get(0).outcome());
        CompiledPolicy failing = policy("{\"validations\":[{\"expression\":\"object.spec.replicas > 1\"}]}");
        CompiledPolicy.Decision d = run(failing, bindings("{\"metadata\":{}}", null)).get(0);
        assertEquals(CompiledPolicy.Outcome.ERROR, d.outcome());
        assertEquals("expression 'object.spec.replicas > 1' resulted in error: no such key: spec", d.message());
    }

    @Test
    void anExpressionThatDoesNotCompileFailsWhenItRuns() throws Exception {
        CompiledPolicy p = policy("{\"validations\":[{\"expression\":\"object.metadata.name ==\"}]}");
        CompiledPolicy.Decision d = run(p, bindings("{\"metadata\":{\"name\":\"x\"}}", null)).get(0);
        assertEquals(CompiledPolicy.Outcome.ERROR, d.outcome());
        assertTrue(d.message().startsWith("compilation error: "), d.message());
    }

    @Test
    void matchConditionsSkipThePolicyWhenOneIsFalse() throws Exception {
        CompiledPolicy p = policy("""
                {"matchConditions":[{"name":"not-system","expression":"!object.metadata.name.startsWith('system-')"},
                                    {"name":"has-data","expression":"has(object.data)"}],
                 "validations":[{"expression":"false"}]}""");
        assertFalse(p.conditionsHold(bindings("{\"metadata\":{\"name\":\"system-x\"},\"data\":{}}", null)));
        assertFalse(p.conditionsHold(bindings("{\"metadata\":{\"name\":\"x\"}}", null)));
        assertTrue(p.conditionsHold(bindings("{\"metadata\":{\"name\":\"x\"},\"data\":{}}", null)));
        CompiledPolicy erring = policy("{\"matchConditions\":[{\"name\":\"e\",\"expression\":\"object.spec.x == 1\"}]}");
        CompiledPolicy.PolicyException e = assertThrows(CompiledPolicy.PolicyException.class,
                () -> erring.conditionsHold(bindings("{\"metadata\":{}}", null)));
        assertEquals("expression 'object.spec.x == 1' resulted in error: no such key: spec", e.getMessage());
    }
}
