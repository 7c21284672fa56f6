package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.admissionregistration.Fixtures.create;
import static io.kubelix.resource.admissionregistration.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** MutatingAdmissionPolicy and its binding: kube's defaults and validation messages. */
class MutatingAdmissionPolicyStrategyTest {
    private final MutatingAdmissionPolicyStrategy strategy = new MutatingAdmissionPolicyStrategy();
    private final MutatingAdmissionPolicyBindingStrategy bindings = new MutatingAdmissionPolicyBindingStrategy();

    private static final String RULES = "'matchConstraints':{'resourceRules':[{'apiGroups':['apps'],'apiVersions':['v1'],"
            + "'operations':['CREATE','UPDATE'],'resources':['deployments']}]}";

    @Test
    void defaultsFailurePolicyAndMatchConstraints() {
        ObjectNode p = json("{'metadata':{'name':'p'},'spec':{" + RULES + ",'reinvocationPolicy':'IfNeeded',"
                + "'mutations':[{'patchType':'ApplyConfiguration','applyConfiguration':{'expression':'Object{}'}}]}}");
        assertEquals(List.of(), create(strategy, p));
        assertEquals("Fail", p.path("spec").path("failurePolicy").asText());
        assertEquals("Equivalent", p.path("spec").path("matchConstraints").path("matchPolicy").asText());
        assertEquals("*", p.path("spec").path("matchConstraints").path("resourceRules").get(0).path("scope").asText());
    }

    @Test
    void requiresMutationsAndAReinvocationPolicy() {
        ObjectNode p = json("{'metadata':{'name':'p'},'spec':{}}");
        assertEquals(List.of("spec.matchConstraints: Required value",
                "spec.mutations: Required value: mutations must contain at least one item",
                "spec.reinvocationPolicy: Required value"), create(strategy, p));
    }

    @Test
    void eachMutationHasTheOneExpressionItsPatchTypeNames() {
        ObjectNode p = json("{'metadata':{'name':'p'},'spec':{" + RULES + ",'reinvocationPolicy':'Sometimes','mutations':["
                + "{'patchType':'JSONPatch','applyConfiguration':{'expression':'Object{}'}},"
                + "{'patchType':'ApplyConfiguration','applyConfiguration':{'expression':' '},'jsonPatch':{'expression':'[]'}},"
                + "{'patchType':'StrategicMerge'},{}]}}");
        assertEquals(List.of(
                "spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch",
                "spec.mutations[0].applyConfiguration: Invalid value: {applyConfiguration}: must not be specified when patchType is JSONPatch",
                "spec.mutations[1].applyConfiguration.expression: Required value",
                "spec.mutations[1].jsonPatch: Invalid value: {jsonPatch}: must not be specified when patchType is ApplyConfiguration",
                "spec.mutations[2].patchType: Unsupported value: \"StrategicMerge\": supported values: \"ApplyConfiguration\", \"JSONPatch\"",
                "spec.mutations[3].patchType: Required value",
                "spec.reinvocationPolicy: Unsupported value: \"Sometimes\": supported values: \"Never\", \"IfNeeded\""),
                create(strategy, p));
    }

    @Test
    void onlyCreatesAndUpdatesCanBeMutated() {
        ObjectNode p = json("{'metadata':{'name':'p'},'spec':{'reinvocationPolicy':'Never','matchConstraints':{'resourceRules':"
                + "[{'apiGroups':[''],'apiVersions':['v1'],'operations':['DELETE'],'resources':['configmaps']}]},"
                + "'mutations':[{'patchType':'JSONPatch','jsonPatch':{'expression':'[]'}}]}}");
        assertEquals(List.of("spec.matchConstraints.resourceRules.operations: Unsupported value: \"DELETE\": "
                + "supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\""), create(strategy, p));
        ObjectNode b = json("{'metadata':{'name':'b'},'spec':{'policyName':'p','paramRef':{'name':'x'},'matchResources':"
                + "{'resourceRules':[{'apiGroups':[''],'apiVersions':['v1'],'operations':['DELETE'],'resources':['configmaps']}]}}}");
        assertEquals(List.of("spec.matchResources.resourceRules.operations: Unsupported value: \"DELETE\": "
                + "supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\""), create(bindings, b));
        assertEquals("Deny", b.path("spec").path("paramRef").path("parameterNotFoundAction").asText());
    }
}
