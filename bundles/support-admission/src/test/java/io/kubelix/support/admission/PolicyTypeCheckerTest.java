package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.SchemaResolver;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Policies' expressions type-checked against the schemas of the kinds they match, with kube's warnings. */
class PolicyTypeCheckerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupVersionKind DEPLOYMENT = new GroupVersionKind("apps", "v1", "Deployment");

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s.replace('\'', '"'));
    }

    /** Deployments with a spec of replicas, and full object metadata by reference; a recursive Props kind. */
    private static final SchemaResolver SCHEMAS = new SchemaResolver() {
        @Override
        public GroupVersionKind kindFor(GroupVersionResource resource) {
            return resource.equals(new GroupVersionResource("apps", "v1", "deployments")) ? DEPLOYMENT : null;
        }

        @Override
        public ResourceSchema resolveSchema(GroupVersionKind kind) {
            try {
                return kind.equals(DEPLOYMENT) ? ResourceSchema.of((ObjectNode) json("{"
                        + "'Deployment':{'type':'object','properties':{'apiVersion':{'type':'string'},'kind':{'type':'string'},"
                        + "'metadata':{'allOf':[{'$ref':'#/components/schemas/ObjectMeta'}]},"
                        + "'spec':{'type':'object','properties':{'replicas':{'type':'integer'},"
                        + "'props':{'$ref':'#/components/schemas/Props'}}}}},"
                        + "'ObjectMeta':{'type':'object','properties':{'name':{'type':'string'},'generateName':{'type':'string'},"
                        + "'labels':{'type':'object','additionalProperties':{'type':'string'}}}},"
                        + "'Props':{'type':'object','properties':{'not':{'$ref':'#/components/schemas/Props'}}}}"), "Deployment")
                        : null;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    };

    @Test
    void expressionsThatDoNotCompileForAMatchedKindAreWarnedAbout() throws Exception {
        JsonNode spec = json("{'matchConstraints':{'resourceRules':[{'apiGroups':['apps'],'apiVersions':['v1'],"
                + "'resources':['deployments','deployments/scale'],'operations':['CREATE']}]},'validations':["
                + "{'expression':'object.spec.replicas <= 5 && object.metadata.labels[\\'app\\'] != \\'\\''},"
                + "{'expression':'object.spec.replica <= 5','messageExpression':'\\'replicas: \\' + object.spec.replicas'},"
                + "{'expression':'has(object.spec.props.not.not.x)'}]}");
        List<PolicyTypeChecker.ExpressionWarning> warnings = new PolicyTypeChecker(SCHEMAS).check(spec);
        assertEquals(2, warnings.size(), warnings::toString);
        assertEquals("spec.validations[1].expression", warnings.get(0).fieldRef());
        assertEquals("""
                apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'
                 | object.spec.replica <= 5
                 | ...........^
                """, warnings.get(0).warning());
        assertEquals("spec.validations[1].messageExpression", warnings.get(1).fieldRef());
        assertEquals("""
                apps/v1, Kind=Deployment: ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(string, int)'
                 | "replicas: " + object.spec.replicas
                 | .............^
                """, warnings.get(1).warning());
    }

    @Test
    void requestNamespaceObjectAndVariablesAreTypedAsKubeTypesThem() throws Exception {
        JsonNode spec = json("{'matchConstraints':{'resourceRules':[{'apiGroups':['apps'],'apiVersions':['v1'],"
                + "'resources':['deployments']}]},'variables':[{'name':'replicas','expression':'object.spec.replicas'},"
                + "{'name':'twice','expression':'variables.replicas * 2'},{'name':'broken','expression':'object.nothing'}],"
                + "'validations':["
                + "{'expression':'request.userInfo.username != \\'\\' && request.kind.kind == \\'Deployment\\' && request.dryRun'},"
                + "{'expression':'namespaceObject.metadata.labels[\\'team\\'] == \\'a\\' && namespaceObject.status.phase != \\'\\''},"
                + "{'expression':'variables.twice <= 10 && variables.broken == 1 && size(request.options) >= 0'},"
                + "{'expression':'request.user == \\'x\\''},"
                + "{'expression':'namespaceObject.spec.phase == \\'x\\''},"
                + "{'expression':'variables.replicas == \\'3\\''},"
                + "{'expression':'variables.missing == 1'}]}");
        List<PolicyTypeChecker.ExpressionWarning> warnings = new PolicyTypeChecker(SCHEMAS).check(spec);
        assertEquals(List.of("spec.validations[3].expression", "spec.validations[4].expression",
                "spec.validations[5].expression", "spec.validations[6].expression"),
                warnings.stream().map(PolicyTypeChecker.ExpressionWarning::fieldRef).toList(), warnings::toString);
        assertEquals("""
                apps/v1, Kind=Deployment: ERROR: <input>:1:8: undefined field 'user'
                 | request.user == "x"
                 | .......^
                """, warnings.get(0).warning());
        assertEquals("""
                apps/v1, Kind=Deployment: ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(int, string)'
                 | variables.replicas == "3"
                 | ...................^
                """, warnings.get(2).warning());
        assertEquals("""
                apps/v1, Kind=Deployment: ERROR: <input>:1:10: undefined field 'missing'
                 | variables.missing == 1
                 | .........^
                """, warnings.get(3).warning());
    }

    @Test
    void kindsWithoutSchemasAndWildcardRulesAreNotChecked() throws Exception {
        JsonNode spec = json("{'matchConstraints':{'resourceRules':[{'apiGroups':['*'],'apiVersions':['v1'],"
                + "'resources':['deployments']},{'apiGroups':[''],'apiVersions':['v1'],'resources':['configmaps']}]},"
                + "'validations':[{'expression':'object.nothing'}]}");
        assertEquals(List.of(), new PolicyTypeChecker(SCHEMAS).check(spec));
    }
}
