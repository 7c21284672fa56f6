package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.admissionregistration.Fixtures.CTX;
import static io.kubelix.resource.admissionregistration.Fixtures.create;
import static io.kubelix.resource.admissionregistration.Fixtures.json;
import static io.kubelix.resource.admissionregistration.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ValidatingAdmissionPolicyStrategyTest {
    private final ValidatingAdmissionPolicyStrategy strategy = new ValidatingAdmissionPolicyStrategy();

    /** The replica limit policy of kube's documentation. */
    static ObjectNode replicaLimit() {
        return json("{'apiVersion':'admissionregistration.k8s.io/v1','kind':'ValidatingAdmissionPolicy',"
                + "'metadata':{'name':'demo-policy.example.com'},'spec':{'matchConstraints':{'resourceRules':[{"
                + "'apiGroups':['apps'],'apiVersions':['v1'],'operations':['CREATE','UPDATE'],'resources':['deployments']}]},"
                + "'validations':[{'expression':'object.spec.replicas <= 5'}]}}");
    }

    @Test
    void defaultsFailurePolicyAndMatchConstraints() {
        ObjectNode p = replicaLimit();
        p.putObject("status").put("observedGeneration", 7);
        assertEquals(List.of(), create(strategy, p));
        assertEquals("Fail", p.path("spec").path("failurePolicy").asText());
        assertEquals(json("{'resourceRules':[{'apiGroups':['apps'],'apiVersions':['v1'],'operations':['CREATE','UPDATE'],"
                + "'resources':['deployments'],'scope':'*'}],'matchPolicy':'Equivalent','namespaceSelector':{},"
                + "'objectSelector':{}}"), p.path("spec").path("matchConstraints"));
        assertEquals(false, p.has("status"), "a client cannot create a status");
    }

    @Test
    void requiresMatchConstraintsAndAValidation() {
        ObjectNode p = json("{'metadata':{'name':'p'},'spec':{}}");
        assertEquals(List.of("spec.matchConstraints: Required value",
                "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
                "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"),
                create(strategy, p));

        ObjectNode noRules = json("{'metadata':{'name':'p'},'spec':{'matchConstraints':{},'validations':[{'expression':' ',"
                + "'reason':'Teapot','message':'a\\nb'}]}}");
        assertEquals(List.of("spec.matchConstraints.resourceRules: Required value",
                "spec.validations[0].expression: Required value: expression is not specified",
                "spec.validations[0].message: Invalid value: \"a\\nb\": message must not contain line breaks",
                "spec.validations[0].reason: Unsupported value: \"Teapot\": supported values: \"Forbidden\", \"Invalid\", "
                        + "\"RequestEntityTooLarge\", \"Unauthorized\""), create(strategy, noRules));
    }

    private static com.fasterxml.jackson.databind.JsonNode annotations(String list) {
        return json("{'list':" + list + "}").get("list");
    }

    @Test
    void auditAnnotationKeysAreQualifiedNamesUnderThePolicysAndUnique() {
        ObjectNode p = replicaLimit();
        ((ObjectNode) p.get("spec")).set("auditAnnotations", annotations("[{'key':'high-replica-count',"
                + "'valueExpression':'\\'Deployment spec.replicas set to \\' + string(object.spec.replicas)'}]"));
        assertEquals(List.of(), create(strategy, p));

        ((ObjectNode) p.get("spec")).set("auditAnnotations", annotations("[{'key':'bad key','valueExpression':' '},"
                + "{'key':'bad key','valueExpression':'null'}]"));
        assertEquals(List.of("spec.auditAnnotations[0].key: Invalid value: \"demo-policy.example.com/bad key\": name part must "
                        + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                        + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified",
                "spec.auditAnnotations[1].key: Invalid value: \"demo-policy.example.com/bad key\": name part must "
                        + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                        + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "spec.auditAnnotations[1].key: Duplicate value: \"bad key\""), create(strategy, p));

        ((ObjectNode) p.get("spec")).set("auditAnnotations", annotations("[{'key':'k','valueExpression':'\\'" + "x".repeat(5200)
                + "\\''}]"));
        assertEquals(List.of("spec.auditAnnotations[0].valueExpression: Required value: must not exceed 5120 bytes in length"),
                create(strategy, p));
    }

    @Test
    void auditAnnotationValueExpressionsCompileToAStringOrNullAsKubeRequires() {
        ObjectNode p = replicaLimit();
        ObjectNode spec = (ObjectNode) p.get("spec");
        spec.set("variables", annotations("[{'name':'team','expression':'namespaceObject.metadata.labels[\\'team\\']'}]"));
        spec.set("auditAnnotations", annotations("[{'key':'a','valueExpression':'variables.team + request.userInfo.username'},"
                + "{'key':'b','valueExpression':'null'},"
                + "{'key':'c','valueExpression':'1 + 1'},"
                + "{'key':'d','valueExpression':'params.name'},"
                + "{'key':'e','valueExpression':'request.user'}]"));
        assertEquals(List.of("spec.auditAnnotations[2].valueExpression: Invalid value: \"1 + 1\": must evaluate to one of "
                        + "[string null_type]",
                "spec.auditAnnotations[3].valueExpression: Invalid value: \"params.name\": compilation failed: ERROR: "
                        + "<input>:1:1: undeclared reference to 'params' (in container '')\n | params.name\n | ^",
                "spec.auditAnnotations[4].valueExpression: Invalid value: \"request.user\": compilation failed: ERROR: "
                        + "<input>:1:8: undefined field 'user'\n | request.user\n | .......^"), create(strategy, p));

        spec.putObject("paramKind").put("apiVersion", "v1").put("kind", "ConfigMap");
        spec.set("auditAnnotations", annotations("[{'key':'d','valueExpression':'string(params.data.size)'}]"));
        assertEquals(List.of(), create(strategy, p));
    }

    @Test
    void paramKindNeedsApiVersionAndKind() {
        ObjectNode p = replicaLimit();
        ((ObjectNode) p.get("spec")).putObject("paramKind").put("apiVersion", "rules.example.com/v1");
        assertEquals(List.of("spec.paramKind.kind: Required value"), create(strategy, p));
    }

    @Test
    void updatesKeepTheStatusAndTheStatusSubresourceKeepsTheSpec() {
        ObjectNode old = replicaLimit();
        create(strategy, old);
        old.putObject("status").put("observedGeneration", 1);

        ObjectNode put = old.deepCopy();
        put.putObject("status").put("observedGeneration", 9);
        assertEquals(List.of(), update(strategy, put, old));
        assertEquals(1, put.path("status").path("observedGeneration").asInt());

        ObjectNode status = old.deepCopy();
        status.withObject("/spec").put("failurePolicy", "Ignore");
        status.putObject("status").put("observedGeneration", 2);
        new PolicyStatusStrategy().prepareForUpdate(CTX, status, old);
        assertEquals("Fail", status.path("spec").path("failurePolicy").asText());
        assertEquals(2, status.path("status").path("observedGeneration").asInt());
    }
}
