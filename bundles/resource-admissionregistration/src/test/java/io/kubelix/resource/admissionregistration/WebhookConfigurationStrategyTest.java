package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.admissionregistration.Fixtures.create;
import static io.kubelix.resource.admissionregistration.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

class WebhookConfigurationStrategyTest {

    /** A webhook configuration as users write it, with only what v1 requires. */
    private static ObjectNode config(String kind, String webhook) {
        return json("{'apiVersion':'admissionregistration.k8s.io/v1','kind':'" + kind + "','metadata':{'name':'cfg'},"
                + "'webhooks':[" + webhook + "]}");
    }

    private static final String POD_POLICY = "{'name':'pod-policy.example.com','sideEffects':'None',"
            + "'admissionReviewVersions':['v1'],'clientConfig':{'service':{'namespace':'default','name':'webhook'}},"
            + "'rules':[{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods']}]}";

    @Test
    void mutatingDefaultsAsKube() {
        ObjectNode cfg = config("MutatingWebhookConfiguration", POD_POLICY);
        assertEquals(List.of(), create(WebhookConfigurationStrategy.mutating(), cfg));
        assertEquals(json("{'name':'pod-policy.example.com','sideEffects':'None','admissionReviewVersions':['v1'],"
                + "'clientConfig':{'service':{'namespace':'default','name':'webhook','port':443}},"
                + "'rules':[{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods'],'scope':'*'}],"
                + "'failurePolicy':'Fail','matchPolicy':'Equivalent','namespaceSelector':{},'objectSelector':{},"
                + "'timeoutSeconds':10,'reinvocationPolicy':'Never'}"), cfg.path("webhooks").path(0));
    }

    @Test
    void validatingHasNoReinvocationPolicy() {
        ObjectNode cfg = config("ValidatingWebhookConfiguration", POD_POLICY);
        assertEquals(List.of(), create(WebhookConfigurationStrategy.validating(), cfg));
        assertEquals(false, cfg.path("webhooks").path(0).has("reinvocationPolicy"));
    }

    @Test
    void v1RequiresSideEffectsReviewVersionsAndOneClientConfig() {
        ObjectNode cfg = config("ValidatingWebhookConfiguration", "{'name':'a.example.com','clientConfig':{}}");
        assertEquals(List.of("webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
                "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
                "webhooks[0].clientConfig: Required value: exactly one of url or service is required"),
                create(WebhookConfigurationStrategy.validating(), cfg));
    }

    @Test
    void namesAreFullyQualifiedAndUnique() {
        ObjectNode cfg = config("ValidatingWebhookConfiguration", POD_POLICY.replace("pod-policy.example.com", "policy")
                + "," + POD_POLICY + "," + POD_POLICY);
        assertEquals(List.of("webhooks[0].name: Invalid value: \"policy\": should be a domain with at least three "
                + "segments separated by dots", "webhooks[2].name: Duplicate value: \"pod-policy.example.com\""),
                create(WebhookConfigurationStrategy.validating(), cfg));
    }

    @Test
    void urlsAreHttpsWithoutQueryAndTimeoutsAreShort() {
        ObjectNode cfg = config("ValidatingWebhookConfiguration", POD_POLICY.replace(
                "'clientConfig':{'service':{'namespace':'default','name':'webhook'}}",
                "'clientConfig':{'url':'http://hook.example.com/x?a=b'},'timeoutSeconds':31,'failurePolicy':'Never'"));
        assertEquals(List.of("webhooks[0].failurePolicy: Unsupported value: \"Never\": supported values: \"Fail\", \"Ignore\"",
                "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
                "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; "
                        + "desired format: https://host[/path]",
                "webhooks[0].clientConfig.url: Invalid value: \"a=b\": query parameters are not permitted in the URL"),
                create(WebhookConfigurationStrategy.validating(), cfg));
    }

    @Test
    void rulesAsKubeValidatesThem() {
        ObjectNode cfg = config("MutatingWebhookConfiguration", POD_POLICY.replace(
                "'rules':[{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods']}]",
                "'rules':[{'operations':['*','PATCH'],'apiGroups':['*','apps'],'apiVersions':[],'resources':['*','pods'],"
                        + "'scope':'Global'},{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],"
                        + "'resources':['*/*','pods/status']}]"));
        assertEquals(List.of(
                "webhooks[0].rules[0].operations: Invalid value: []string{\"*\", \"PATCH\"}: if '*' is present, must not "
                        + "specify other operations",
                "webhooks[0].rules[0].operations[1]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", "
                        + "\"CREATE\", \"DELETE\", \"UPDATE\"",
                "webhooks[0].rules[0].apiGroups: Invalid value: []string{\"*\", \"apps\"}: if '*' is present, must not "
                        + "specify other API groups",
                "webhooks[0].rules[0].apiVersions: Required value",
                "webhooks[0].rules[0].resources: Invalid value: []string{\"*\", \"pods\"}: if '*' is present, must not "
                        + "specify other resources without subresources",
                "webhooks[0].rules[0].scope: Unsupported value: \"Global\": supported values: \"*\", \"Cluster\", \"Namespaced\"",
                "webhooks[0].rules[1].resources: Invalid value: []string{\"*/*\", \"pods/status\"}: if '*/*' is present, "
                        + "must not specify other resources"),
                create(WebhookConfigurationStrategy.mutating(), cfg));
    }

    @Test
    void servicePortAndPath() {
        ObjectNode cfg = config("ValidatingWebhookConfiguration", POD_POLICY.replace("'name':'webhook'}",
                "'name':'webhook','port':70000,'path':'validate'}"));
        assertEquals(List.of("webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be "
                + "between 1 and 65535, inclusive",
                "webhooks[0].clientConfig.service.path: Invalid value: \"validate\": must start with a '/'"),
                create(WebhookConfigurationStrategy.validating(), cfg));
    }

    @Test
    void matchConditionsNeedUniqueQualifiedNamesAndExpressions() {
        ObjectNode cfg = config("ValidatingWebhookConfiguration", POD_POLICY.replace("'sideEffects':'None',",
                "'sideEffects':'None','matchConditions':[{'name':'exclude-leases','expression':'true'},"
                        + "{'name':'exclude-leases','expression':''},{'name':'not valid!','expression':'true'}],"));
        assertEquals(List.of("webhooks[0].matchConditions[1].expression: Required value",
                "webhooks[0].matchConditions[1].name: Duplicate value: \"exclude-leases\"",
                "webhooks[0].matchConditions[2].name: Invalid value: \"not valid!\": name part must consist of "
                        + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                        + "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
                create(WebhookConfigurationStrategy.validating(), cfg));
    }
}
