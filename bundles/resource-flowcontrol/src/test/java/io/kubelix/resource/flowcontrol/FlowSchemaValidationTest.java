package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.flowcontrol.Fixtures.aliceSchema;
import static io.kubelix.resource.flowcontrol.Fixtures.create;
import static io.kubelix.resource.flowcontrol.Fixtures.flowSchema;
import static io.kubelix.resource.flowcontrol.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowSchemaValidationTest {
    private final FlowcontrolStrategy strategy = FlowcontrolStrategy.flowSchema();

    private List<String> withRule(String rule) {
        ObjectNode fs = aliceSchema();
        ((ObjectNode) fs.get("spec")).set("rules", Fixtures.node("[" + rule + "]"));
        return create(strategy, fs);
    }

    @Test
    void matchingPrecedenceDefaultsTo1000AndStatusStartsEmpty() {
        ObjectNode fs = aliceSchema();
        fs.putObject("status").putArray("conditions").addObject().put("type", "Dangling");
        assertEquals(List.of(), create(strategy, fs));
        assertEquals(1000, fs.path("spec").path("matchingPrecedence").asInt());
        assertEquals(json("{}"), fs.get("status"));
    }

    @Test
    void matchingPrecedenceIsBetween1And10000AndOneIsExempts() {
        ObjectNode fs = aliceSchema();
        ((ObjectNode) fs.get("spec")).put("matchingPrecedence", -1);
        assertEquals(List.of("spec.matchingPrecedence: Invalid value: -1: must be a positive value"), create(strategy, fs));
        ((ObjectNode) fs.get("spec")).put("matchingPrecedence", 10001);
        assertEquals(List.of("spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000"),
                create(strategy, fs));
        ((ObjectNode) fs.get("spec")).put("matchingPrecedence", 1);
        assertEquals(List.of("spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have "
                + "matchingPrecedence 1"), create(strategy, fs));
    }

    @Test
    void priorityLevelAndDistinguisherMethod() {
        ObjectNode fs = aliceSchema();
        ObjectNode spec = (ObjectNode) fs.get("spec");
        spec.set("priorityLevelConfiguration", json("{'name':''}"));
        spec.set("distinguisherMethod", json("{'type':'ByGroup'}"));
        assertEquals(List.of("spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod"
                        + "{Type:\"ByGroup\"}: supported values: \"ByNamespace\", \"ByUser\"",
                "spec.priorityLevelConfiguration.name: Required value: must reference a priority level"),
                create(strategy, fs));
        spec.set("priorityLevelConfiguration", json("{'name':'Low'}"));
        spec.set("distinguisherMethod", json("{'type':'ByUser'}"));
        List<String> errs = create(strategy, fs);
        assertEquals(1, errs.size());
        assertTrue(errs.get(0).startsWith("spec.priorityLevelConfiguration.name: Invalid value: \"Low\": a lowercase "
                + "RFC 1123 subdomain must consist of"), errs.get(0));
    }

    @Test
    void subjectsNeedTheMemberOfTheirKindAndNoOther() {
        String rules = ",'nonResourceRules':[{'verbs':['*'],'nonResourceURLs':['*']}]}";
        assertEquals(List.of(
                "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
                "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
                "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'"),
                withRule("{'subjects':[{'kind':'ServiceAccount','user':{'name':'fred'},'group':{'name':'fred'}}]" + rules));
        assertEquals(List.of(
                "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
                "spec.rules[0].subjects[0].serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'"),
                withRule("{'subjects':[{'kind':'User','serviceAccount':{'namespace':'s','name':'n'}}]" + rules));
        assertEquals(List.of("spec.rules[0].subjects[0].group.name: Required value"),
                withRule("{'subjects':[{'kind':'Group','group':{}}]" + rules));
        assertEquals(List.of("spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify "
                        + "namespace for service account"),
                withRule("{'subjects':[{'kind':'ServiceAccount','serviceAccount':{'name':'*'}}]" + rules));
        assertEquals(List.of("spec.rules[0].subjects[0].kind: Unsupported value: \"Robot\": supported values: "
                        + "\"Group\", \"ServiceAccount\", \"User\""),
                withRule("{'subjects':[{'kind':'Robot'}]" + rules));
        assertEquals(List.of("spec.rules[0].subjects: Required value: subjects must contain at least one value",
                "spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty"),
                withRule("{'subjects':[]}"));
    }

    @Test
    void resourceRules() {
        String subjects = "{'subjects':[{'kind':'User','user':{'name':'noxu'}}],'resourceRules':[";
        assertEquals(List.of(
                "spec.rules[0].resourceRules[0].verbs: Invalid value: []string{\"*\", \"create\"}: if '*' is present, must not specify other verbs",
                "spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{\"*\", \"tak\"}: if '*' is present, must not specify other api groups",
                "spec.rules[0].resourceRules[0].resources: Invalid value: []string{\"*\", \"tok\"}: if '*' is present, must not specify other resources"),
                withRule(subjects + "{'verbs':['*','create'],'apiGroups':['*','tak'],'resources':['*','tok'],'namespaces':['*']}]}"));
        assertEquals(List.of(
                "spec.rules[0].resourceRules[0].verbs: Required value: verbs must contain at least one value",
                "spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group",
                "spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource",
                "spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace"),
                withRule(subjects + "{}]}"));
        assertEquals(List.of("spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{\"get\", \"escalate\"}: "
                        + "supported values: \"create\", \"delete\", \"deletecollection\", \"get\", \"list\", \"patch\", "
                        + "\"proxy\", \"update\", \"watch\"",
                "spec.rules[0].resourceRules[0].namespaces: Invalid value: []string{\"*\", \"default\"}: if '*' is present, must not specify other namespaces"),
                withRule(subjects + "{'verbs':['get','escalate'],'apiGroups':[''],'resources':['pods'],'namespaces':['*','default']}]}"));
        assertEquals(List.of("spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"-foo\": each member of this "
                        + "list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case "
                        + "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. "
                        + "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                withRule(subjects + "{'verbs':['*'],'apiGroups':['*'],'resources':['*'],'namespaces':['-foo']}]}"));
        assertEquals(List.of(), withRule(subjects + "{'verbs':['*'],'apiGroups':['*'],'resources':['nodes'],'clusterScope':true}]}"));
    }

    @Test
    void nonResourceRules() {
        String subjects = "{'subjects':[{'kind':'Group','group':{'name':'system:authenticated'}}],'nonResourceRules':[";
        assertEquals(List.of(
                "spec.rules[0].nonResourceRules[0].verbs: Required value: verbs must contain at least one value",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value"),
                withRule(subjects + "{}]}"));
        assertEquals(List.of("spec.rules[0].nonResourceRules[0].nonResourceURLs: Invalid value: []string{\"*\", \"/healthz\"}: "
                + "if '*' is present, must not specify other non-resource URLs"),
                withRule(subjects + "{'verbs':['get'],'nonResourceURLs':['*','/healthz']}]}"));
        assertEquals(List.of("spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: \"healthz\": must start with slash",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: \"/health*\": wildcard can only do suffix matching"),
                withRule(subjects + "{'verbs':['get'],'nonResourceURLs':['healthz','/health*','/healthz/*','/']}]}"));
        for (String bad : List.of("", "//", "/////", "/healthz/*/foo", "/healthz/foo bar", "/health*/foo", "/*/*")) {
            assertTrue(FlowSchemaValidation.nonResourceURLProblem(bad) != null, bad);
        }
        for (String good : List.of("/", "/foo", "/apis/", "/healthz/*")) {
            assertEquals(null, FlowSchemaValidation.nonResourceURLProblem(good), good);
        }
    }

    @Test
    void theMandatorySchemasKeepTheirFixedSpec() {
        String all = "'resourceRules':[{'verbs':['*'],'apiGroups':['*'],'resources':['*'],'clusterScope':true,"
                + "'namespaces':['*']}],'nonResourceRules':[{'verbs':['*'],'nonResourceURLs':['*']}]";
        ObjectNode exempt = flowSchema("exempt", "{'matchingPrecedence':1,'priorityLevelConfiguration':{'name':'exempt'},"
                + "'rules':[{'subjects':[{'kind':'Group','group':{'name':'system:masters'}}]," + all + "}]}");
        assertEquals(List.of(), create(strategy, exempt));
        ObjectNode catchAll = flowSchema("catch-all", "{'matchingPrecedence':10000,'priorityLevelConfiguration':"
                + "{'name':'catch-all'},'distinguisherMethod':{'type':'ByUser'},'rules':[{'subjects':["
                + "{'kind':'Group','group':{'name':'system:unauthenticated'}},{'kind':'Group','group':{'name':"
                + "'system:authenticated'}}]," + all + "}]}");
        assertEquals(List.of(), create(strategy, catchAll));

        ((ObjectNode) exempt.path("spec").path("rules").get(0).path("nonResourceRules").get(0))
                .set("nonResourceURLs", Fixtures.node("['/']"));
        List<String> errs = create(strategy, exempt);
        assertEquals(1, errs.size());
        assertTrue(errs.get(0).startsWith("spec: Invalid value: {") && errs.get(0).endsWith(
                ": spec of 'exempt' must equal the fixed value"), errs.get(0));
        ((ObjectNode) catchAll.get("spec")).remove("distinguisherMethod");
        assertTrue(create(strategy, catchAll).get(0).endsWith("spec of 'catch-all' must equal the fixed value"));
    }

    @Test
    void statusConditionsHaveDistinctTypes() {
        ObjectNode old = aliceSchema();
        create(strategy, old);
        ObjectNode update = old.deepCopy();
        update.set("status", json("{'conditions':[{'type':'Dangling','status':'False'},{'type':'Dangling'},{'type':''}]}"));
        update.put("spec", "ignored");
        FlowcontrolStatusStrategy status = new FlowcontrolStatusStrategy();
        status.prepareForUpdate(Fixtures.CTX, update, old);
        assertEquals(old.get("spec"), update.get("spec"));
        assertEquals(List.of("status.conditions[1].type: Duplicate value: \"Dangling\"",
                        "status.conditions[2].type: Required value: must not be empty"),
                status.validateUpdate(Fixtures.CTX, update, old).stream().map(io.kubelix.api.errors.FieldError::message).toList());

        ObjectNode main = old.deepCopy();
        main.set("status", json("{'conditions':[{'type':'Dangling','status':'True'}]}"));
        strategy.prepareForUpdate(Fixtures.CTX, main, old);
        assertEquals(json("{}"), main.get("status"));
    }
}
