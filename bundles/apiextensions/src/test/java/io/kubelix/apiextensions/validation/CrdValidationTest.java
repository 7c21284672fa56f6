package io.kubelix.apiextensions.validation;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's CRD validation, with the messages of kube's validation_test.go cases. */
class CrdValidationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static ObjectNode crd(String json) throws Exception {
        return (ObjectNode) node(json);
    }

    static com.fasterxml.jackson.databind.JsonNode node(String json) throws Exception {
        return JSON.readTree(json.replace('\'', '"'));
    }

    static ObjectNode valid() throws Exception {
        return crd("{'metadata':{'name':'crontabs.stable.example.com'},'spec':{'group':'stable.example.com',"
                + "'scope':'Namespaced','names':{'plural':'crontabs','singular':'crontab','kind':'CronTab','listKind':'CronTabList'},"
                + "'versions':[{'name':'v1','served':true,'storage':true,'schema':{'openAPIV3Schema':{'type':'object',"
                + "'properties':{'spec':{'type':'object','properties':{'replicas':{'type':'integer'}}}}}}}]},"
                + "'status':{'storedVersions':['v1']}}");
    }

    private static List<String> messages(List<FieldError> errs) {
        return errs.stream().map(FieldError::message).toList();
    }

    @Test
    void aWellFormedCrdIsValid() throws Exception {
        assertEquals(List.of(), messages(CrdValidation.validate(valid())));
    }

    @Test
    void webhookConversionNeedsItsClientConfigAndAReviewVersionTheServerSpeaks() throws Exception {
        ObjectNode crd = valid();
        ObjectNode spec = (ObjectNode) crd.get("spec");
        spec.set("conversion", crd("{'strategy':'Webhook'}"));
        assertEquals(List.of("spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
                "spec.conversion.conversionReviewVersions: Required value"), messages(CrdValidation.validate(crd)));
        spec.set("conversion", crd("{'strategy':'Webhook','webhook':{'clientConfig':{'url':'https://conv.example.com/x'},"
                + "'conversionReviewVersions':['v2','v2','V3']}}"));
        List<String> m = messages(CrdValidation.validate(crd));
        assertEquals("spec.conversion.conversionReviewVersions[1]: Invalid value: \"v2\": duplicate version", m.get(0));
        assertTrue(m.get(1).startsWith("spec.conversion.conversionReviewVersions[2]: Invalid value: \"V3\": "
                + "a DNS-1035 label must consist of lower case alphanumeric characters"), m::toString);
        assertTrue(m.get(2).startsWith("spec.conversion.conversionReviewVersions: Invalid value: ")
                && m.get(2).endsWith(": must include at least one of v1, v1beta1"), m::toString);
        spec.set("conversion", crd("{'strategy':'Webhook','webhook':{'clientConfig':{'url':'https://conv.example.com/x'},"
                + "'conversionReviewVersions':['v1beta1']}}"));
        assertEquals(List.of(), messages(CrdValidation.validate(crd)));
    }

    @Test
    void conversionWebhookClientConfigIsValidatedAsAnAdmissionWebhook() throws Exception {
        ObjectNode crd = valid();
        ObjectNode spec = (ObjectNode) crd.get("spec");
        spec.set("conversion", crd("{'strategy':'Webhook','webhook':{'clientConfig':{'url':'http://u@conv.example.com/x?a=b#f'},"
                + "'conversionReviewVersions':['v1']}}"));
        assertEquals(List.of("spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL "
                        + "scheme; desired format: https://host[/path]",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"u\": user information is not permitted in the URL",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"f\": fragments are not permitted in the URL",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"a=b\": query parameters are not permitted in the URL"),
                messages(CrdValidation.validate(crd)));
        spec.set("conversion", crd("{'strategy':'Webhook','webhook':{'clientConfig':{'service':{'port':0,'path':'/a//b'}},"
                + "'conversionReviewVersions':['v1']}}"));
        assertEquals(List.of("spec.conversion.webhookClientConfig.service.name: Required value",
                "spec.conversion.webhookClientConfig.service.namespace: Required value",
                "spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and "
                        + "65535, inclusive",
                "spec.conversion.webhookClientConfig.service.path: Invalid value: \"/a//b\": segment[1] may not be empty"),
                messages(CrdValidation.validate(crd)));
    }

    @Test
    void anUnreadableCaBundleIsRefusedOnlyOnceTheCrdIsEstablishedWithAGoodOne() throws Exception {
        ObjectNode old = valid();
        ((ObjectNode) old.get("spec")).set("conversion", crd("{'strategy':'Webhook','webhook':{'clientConfig':{"
                + "'url':'https://conv.example.com/x','caBundle':'bm90IHBlbQ=='},'conversionReviewVersions':['v1']}}"));
        assertEquals(List.of(), messages(CrdValidation.validate(old)));
        ObjectNode crd = old.deepCopy();
        assertEquals(List.of(), messages(CrdValidation.validateUpdate(crd, old)));
        old.with("status").set("conditions", node("[{'type':'Established','status':'True'}]"));
        assertEquals(List.of(), messages(CrdValidation.validateUpdate(crd, old)), "the old bundle did not parse either");
        ((ObjectNode) old.at("/spec/conversion/webhook/clientConfig")).remove("caBundle");
        assertEquals(List.of("spec.conversion.webhookClientConfig.caBundle: Invalid value: \"bm90IHBlbQ==\": unable to parse "
                + "bytes as PEM block"), messages(CrdValidation.validateUpdate(crd, old)));
    }

    @Test
    void theNameIsPluralDotGroup() throws Exception {
        ObjectNode crd = valid();
        ((ObjectNode) crd.get("metadata")).put("name", "crontabs.example.com");
        assertEquals(List.of("metadata.name: Invalid value: \"crontabs.example.com\": must be spec.names.plural+\".\"+spec.group"),
                messages(CrdValidation.validate(crd)));
    }

    @Test
    void groupScopeAndNames() throws Exception {
        ObjectNode crd = valid();
        ObjectNode spec = (ObjectNode) crd.get("spec");
        spec.put("group", "example");
        spec.put("scope", "Everywhere");
        ((ObjectNode) spec.get("names")).put("kind", "CronTabList").put("singular", "Cron_Tab");
        crd.with("metadata").put("name", "crontabs.example");
        List<String> m = messages(CrdValidation.validate(crd));
        assertTrue(m.contains("spec.group: Invalid value: \"example\": should be a domain with at least one dot"), m::toString);
        assertTrue(m.contains("spec.scope: Unsupported value: \"Everywhere\": supported values: \"Cluster\", \"Namespaced\""),
                m::toString);
        assertTrue(m.contains("spec.names.listKind: Invalid value: \"CronTabList\": kind and listKind may not be the same"),
                m::toString);
        assertTrue(m.stream().anyMatch(s -> s.startsWith("spec.names.singular: Invalid value: \"Cron_Tab\": a DNS-1035 label")),
                m::toString);
    }

    @Test
    void exactlyOneStorageVersionWithUniqueNames() throws Exception {
        ObjectNode crd = valid();
        ObjectNode v2 = crd.get("spec").get("versions").get(0).deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) crd.get("spec").get("versions")).add(v2);
        List<String> m = messages(CrdValidation.validate(crd));
        assertTrue(m.stream().anyMatch(s -> s.endsWith("must contain unique version names")), m::toString);
        assertTrue(m.stream().anyMatch(s -> s.endsWith("must have exactly one version marked as storage version")), m::toString);
    }

    @Test
    void everyVersionNeedsAStructuralSchema() throws Exception {
        ObjectNode crd = valid();
        ObjectNode v = (ObjectNode) crd.get("spec").get("versions").get(0);
        v.remove("schema");
        assertEquals(List.of("spec.versions[0].schema.openAPIV3Schema: Required value"), messages(CrdValidation.validate(crd)));
        v.set("schema", crd("{'openAPIV3Schema':{'type':'object','properties':{'spec':{'properties':{'a':{'type':'string'}}},"
                + "'list':{'type':'array'},'metadata':{'type':'object','properties':{'labels':{'type':'object'}}}}}}"));
        List<String> m = messages(CrdValidation.validate(crd));
        assertTrue(m.contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be "
                + "empty for specified object fields"), m::toString);
        assertTrue(m.contains("spec.versions[0].schema.openAPIV3Schema.properties[list].items: Required value: must be specified"),
                m::toString);
        assertTrue(m.contains("spec.versions[0].schema.openAPIV3Schema.properties[metadata]: Forbidden: must not specify "
                + "anything other than name and generateName, but metadata is implicitly specified"), m::toString);
    }

    @Test
    void listTypesAndExtensions() throws Exception {
        ObjectNode crd = valid();
        ObjectNode v = (ObjectNode) crd.get("spec").get("versions").get(0);
        v.set("schema", crd("{'openAPIV3Schema':{'type':'object','properties':{'ports':{'type':'array',"
                + "'x-kubernetes-list-type':'map','items':{'type':'object','properties':{'name':{'type':'string'}}}},"
                + "'tags':{'type':'string','x-kubernetes-list-type':'set'},'free':{'type':'object',"
                + "'x-kubernetes-preserve-unknown-fields':false}}}}"));
        List<String> m = messages(CrdValidation.validate(crd));
        String base = "spec.versions[0].schema.openAPIV3Schema.properties";
        assertTrue(m.contains(base + "[ports].x-kubernetes-list-map-keys: Required value: must not be empty if "
                + "x-kubernetes-list-type is map"), m::toString);
        assertTrue(m.contains(base + "[tags].type: Invalid value: \"string\": must be array if x-kubernetes-list-type is "
                + "specified"), m::toString);
        assertTrue(m.contains(base + "[free].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or "
                + "undefined"), m::toString);
    }

    @Test
    void printerColumnsAndScale() throws Exception {
        ObjectNode crd = valid();
        ObjectNode v = (ObjectNode) crd.get("spec").get("versions").get(0);
        v.set("additionalPrinterColumns", node("[{'name':'Size','type':'float','jsonPath':'spec.size'}]"));
        v.set("subresources", crd("{'scale':{'specReplicasPath':'.status.replicas','statusReplicasPath':''}}"));
        List<String> m = messages(CrdValidation.validate(crd));
        assertTrue(m.contains("spec.versions[0].additionalPrinterColumns[0].type: Invalid value: \"float\": must be one of "
                + "boolean,date,integer,number,string"), m::toString);
        assertTrue(m.contains("spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: \"spec.size\": must be "
                + "a simple json path starting with ."), m::toString);
        assertTrue(m.contains("spec.versions[0].subresources.scale.specReplicasPath: Invalid value: \".status.replicas\": "
                + "should be a json path under .spec"), m::toString);
        assertTrue(m.contains("spec.versions[0].subresources.scale.statusReplicasPath: Required value"), m::toString);
    }

    @Test
    void groupAndPluralNeverChangeNorKindOnceEstablished() throws Exception {
        ObjectNode old = valid();
        old.with("status").set("conditions", node("[{'type':'Established','status':'True'}]"));
        ObjectNode crd = old.deepCopy();
        crd.with("spec").with("names").put("kind", "Tab");
        crd.with("spec").put("group", "other.example.com");
        List<String> m = messages(CrdValidation.validateUpdate(crd, old));
        assertTrue(m.contains("spec.names.kind: Invalid value: \"Tab\": field is immutable"), m::toString);
        assertTrue(m.contains("spec.group: Invalid value: \"other.example.com\": field is immutable"), m::toString);
    }

    @Test
    void storedVersionsMustStayInTheSpec() throws Exception {
        ObjectNode crd = valid();
        crd.with("status").set("storedVersions", node("['v1beta1','v1']"));
        assertEquals(List.of("status.storedVersions[0]: Invalid value: \"v1beta1\": missing from spec.versions; v1beta1 was "
                + "previously a storage version, and must remain in spec.versions until a storage migration ensures no data "
                + "remains persisted in v1beta1 and removes v1beta1 from status.storedVersions"),
                messages(CrdValidation.validate(crd)));
    }

    @Test
    void rulesWhoseEstimatedCostIsOverKubesLimitsAreForbidden() throws Exception {
        // kube's case "cost total exceeds total limit": an unbounded list of long strings goes over both
        // limits, a bounded map only adds to the total, a cheap integer rule is not named
        ObjectNode crd = valid();
        ((ObjectNode) crd.get("spec").get("versions").get(0).get("schema")).set("openAPIV3Schema", node("{'type':'object','properties':{"
                + "'array':{'type':'array','items':{'type':'string','maxLength':500000,"
                + "'x-kubernetes-validations':[{'rule':'self.contains(\\'keyword\\')'}]}},"
                + "'map':{'type':'object','maxProperties':10000,'additionalProperties':{'type':'string','maxLength':2048,"
                + "'x-kubernetes-validations':[{'rule':'self.contains(\\'keyword\\')'}]}},"
                + "'field':{'type':'integer','x-kubernetes-validations':[{'rule':'self > 50 && self < 100'}]}}}"));
        String schema = "spec.versions[0].schema.openAPIV3Schema";
        String advice = " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, "
                + "and strings are declared)";
        String contributed = ": Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit "
                + "for entire OpenAPIv3 schema";
        assertEquals(List.of(
                schema + ".properties[array].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds "
                        + "budget by factor of more than 100x" + advice,
                schema + ".properties[array].items.x-kubernetes-validations[0].rule" + contributed,
                schema + ".properties[map].additionalProperties.x-kubernetes-validations[0].rule" + contributed,
                schema + ": Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire "
                        + "OpenAPIv3 schema exceeds budget by factor of more than 100x" + advice),
                messages(CrdValidation.validate(crd)));
    }

    @Test
    void limitsOnListsAndStringsBringARuleUnderKubesLimit() throws Exception {
        ObjectNode crd = valid();
        String list = "{'type':'object','properties':{'names':{'type':'array',%s'items':{'type':'string'%s},"
                + "'x-kubernetes-validations':[{'rule':'self.all(n, n.startsWith(\\'x-\\') && n.size() < 64)'},"
                + "{'rule':'self.all(a, self.exists_one(b, a == b))'}]}}}";
        ((ObjectNode) crd.get("spec").get("versions").get(0).get("schema")).set("openAPIV3Schema", node(String.format(list, "", "")));
        List<String> unbounded = messages(CrdValidation.validate(crd));
        assertTrue(unbounded.contains("spec.versions[0].schema.openAPIV3Schema.properties[names].x-kubernetes-validations[1].rule: "
                + "Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding "
                + "maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"), unbounded::toString);
        ((ObjectNode) crd.get("spec").get("versions").get(0).get("schema")).set("openAPIV3Schema",
                node(String.format(list, "'maxItems':100,", ",'maxLength':63")));
        assertEquals(List.of(), messages(CrdValidation.validate(crd)));
    }
}
