package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.admissionregistration.Fixtures.create;
import static io.kubelix.resource.admissionregistration.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ValidatingAdmissionPolicyBindingStrategyTest {
    private final ValidatingAdmissionPolicyBindingStrategy strategy = new ValidatingAdmissionPolicyBindingStrategy();

    @Test
    void defaultsParamRefAndMatchResources() {
        ObjectNode b = json("{'metadata':{'name':'demo-binding'},'spec':{'policyName':'demo-policy.example.com',"
                + "'validationActions':['Deny'],'paramRef':{'name':'limits','namespace':'default'},"
                + "'matchResources':{'namespaceSelector':{'matchLabels':{'env':'test'}}}}}");
        assertEquals(List.of(), create(strategy, b));
        assertEquals("Deny", b.path("spec").path("paramRef").path("parameterNotFoundAction").asText());
        assertEquals(json("{'namespaceSelector':{'matchLabels':{'env':'test'}},'matchPolicy':'Equivalent',"
                + "'objectSelector':{}}"), b.path("spec").path("matchResources"));
    }

    @Test
    void requiresPolicyNameAndActions() {
        ObjectNode b = json("{'metadata':{'name':'b'},'spec':{}}");
        assertEquals(List.of("spec.policyName: Required value",
                "spec.validationActions: Required value: at least one validation action is required"), create(strategy, b));
    }

    @Test
    void actionsAreKnownUniqueAndNotDenyWithWarn() {
        ObjectNode b = json("{'metadata':{'name':'b'},'spec':{'policyName':'p','validationActions':['Deny','Warn','Deny','Log']}}");
        assertEquals(List.of("spec.validationActions[2]: Duplicate value: \"Deny\"",
                "spec.validationActions[3]: Unsupported value: \"Log\": supported values: \"Audit\", \"Deny\", \"Warn\"",
                "spec.validationActions: Invalid value: []admissionregistration.ValidationAction{\"Deny\", \"Warn\", \"Deny\", "
                        + "\"Log\"}: must not contain both Deny and Warn (repeating the same validation failure information "
                        + "in the API response and headers serves no purpose)"), create(strategy, b));
    }

    @Test
    void paramRefNamesOrSelectsButNotBoth() {
        ObjectNode b = json("{'metadata':{'name':'b'},'spec':{'policyName':'p','validationActions':['Audit'],"
                + "'paramRef':{'name':'x','selector':{},'parameterNotFoundAction':'Maybe'}}}");
        assertEquals(List.of("spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
                "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
                "spec.paramRef.parameterNotFoundAction: Unsupported value: \"Maybe\": supported values: \"Allow\", \"Deny\""),
                create(strategy, b));
    }
}
