package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flowcontrol plugin in the built distribution, driven by the real kubectl: a
 * PriorityLevelConfiguration and a FlowSchema applied from YAML get kube's defaults and are listed with
 * kube's columns, their status subresources change only their status, invalid objects are refused
 * with kube's 422 text, and {@code kubectl explain} reads their schemas. The assertions look only at
 * the objects the test writes, whatever configuration objects the server creates itself. The methods
 * run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlFlowControlIT extends KubectlSuite {
    private static final String LEVEL = """
            apiVersion: flowcontrol.apiserver.k8s.io/v1
            kind: PriorityLevelConfiguration
            metadata:
              name: workload-test
            spec:
              type: Limited
              limited:
                nominalConcurrencyShares: SHARES
                limitResponse:
                  type: Queue
                  queuing:
                    queues: QUEUES
                    handSize: 4
            """;
    private static final String SCHEMA = """
            apiVersion: flowcontrol.apiserver.k8s.io/v1
            kind: FlowSchema
            metadata:
              name: NAME
            spec:
              matchingPrecedence: PRECEDENCE
              priorityLevelConfiguration:
                name: workload-test
              distinguisherMethod:
                type: ByUser
              rules:
              - subjects:
                - kind: ServiceAccount
                  serviceAccount:
                    namespace: default
                    name: '*'
                resourceRules:
                - verbs: ["get", "list", "watch"]
                  apiGroups: [""]
                  resources: ["configmaps"]
                  namespaces: ["default"]
            """;

    KubectlFlowControlIT() {
        super("flowcontrol", "flowschemas,prioritylevelconfigurations");
    }

    @Test
    @Order(1)
    void apiResourcesListBothKindsClusterScopedWithoutShortNames() throws Exception {
        Result r = kubectl.ok("api-resources", "--api-group=flowcontrol.apiserver.k8s.io");
        for (String line : List.of("flowschemas\\s+flowcontrol.apiserver.k8s.io/v1\\s+false\\s+FlowSchema",
                "prioritylevelconfigurations\\s+flowcontrol.apiserver.k8s.io/v1\\s+false\\s+PriorityLevelConfiguration")) {
            assertTrue(r.stdout().lines().anyMatch(l -> l.matches(line)), line + " in\n" + r.stdout());
        }
    }

    @Test
    @Order(2)
    void aPriorityLevelFromYamlGetsKubesDefaultsAndColumns() throws Exception {
        String file = write("level.yaml", LEVEL.replace("SHARES", "20").replace("QUEUES", "16")).toString();
        assertEquals("prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/workload-test created",
                kubectl.ok("apply", "-f", file).stdout().trim());
        assertEquals("prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/workload-test unchanged",
                kubectl.ok("apply", "-f", file).stdout().trim());

        List<String> lines = kubectl.ok("get", "prioritylevelconfigurations", "workload-test").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+TYPE\\s+NOMINALCONCURRENCYSHARES\\s+QUEUES\\s+HANDSIZE\\s+QUEUELENGTHLIMIT\\s+AGE"),
                lines::toString);
        assertTrue(lines.get(1).matches("workload-test\\s+Limited\\s+20\\s+16\\s+4\\s+50\\s+\\d+s"), lines::toString);

        JsonNode limited = JSON.readTree(kubectl.ok("get", "prioritylevelconfiguration", "workload-test", "-o", "json")
                .stdout()).path("spec").path("limited");
        assertEquals(0, limited.path("lendablePercent").asInt(-1), limited::toString);
        assertEquals(50, limited.path("limitResponse").path("queuing").path("queueLengthLimit").asInt(), limited::toString);
    }

    @Test
    @Order(3)
    void aFlowSchemaFromYamlIsListedWithKubesColumnsAndItsStatusChangesOnlyItsStatus() throws Exception {
        String file = write("schema.yaml", SCHEMA.replace("NAME", "service-accounts-test")
                .replace("PRECEDENCE", "500")).toString();
        assertEquals("flowschema.flowcontrol.apiserver.k8s.io/service-accounts-test created",
                kubectl.ok("apply", "-f", file).stdout().trim());

        List<String> lines = kubectl.ok("get", "flowschemas", "service-accounts-test").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+PRIORITYLEVEL\\s+MATCHINGPRECEDENCE\\s+DISTINGUISHERMETHOD\\s+AGE\\s+MISSINGPL"),
                lines::toString);
        assertTrue(lines.get(1).matches("service-accounts-test\\s+workload-test\\s+500\\s+ByUser\\s+\\d+s\\s+(\\?|False)"),
                lines::toString);

        // The condition written is the one the server's config controller keeps (workload-test exists), so
        // that the controller does not put it back meanwhile.
        kubectl.ok("patch", "flowschema", "service-accounts-test", "--subresource=status", "--type=merge", "-p",
                "{\"spec\":{\"matchingPrecedence\":900},\"status\":{\"conditions\":[{\"type\":\"Dangling\",\"status\":\"False\","
                        + "\"reason\":\"Found\",\"message\":\"test\"}]}}");
        assertTrue(kubectl.ok("get", "flowschema", "service-accounts-test").stdout().lines().anyMatch(l ->
                l.matches("service-accounts-test\\s+workload-test\\s+500\\s+ByUser\\s+\\d+s\\s+False")));

        JsonNode fs = JSON.readTree(kubectl.ok("get", "flowschema", "service-accounts-test", "-o", "json").stdout());
        assertEquals(1, fs.path("metadata").path("generation").asInt(), fs::toString);
        kubectl.ok("patch", "flowschema", "service-accounts-test", "--type=merge", "-p", "{\"spec\":{\"matchingPrecedence\":600}}");
        fs = JSON.readTree(kubectl.ok("get", "flowschema", "service-accounts-test", "-o", "json").stdout());
        assertEquals(600, fs.path("spec").path("matchingPrecedence").asInt(), fs::toString);
        assertEquals(2, fs.path("metadata").path("generation").asInt(), fs::toString);
    }

    @Test
    @Order(4)
    void invalidObjectsGetKubes422() throws Exception {
        Result level = kubectl.run("apply", "-f", write("bad-level.yaml", LEVEL.replace("SHARES", "20")
                .replace("QUEUES", "16").replace("workload-test", "bad-level").replace("handSize: 4", "handSize: 17")).toString());
        assertNotEquals(0, level.exitCode(), level::toString);
        assertTrue(level.stderr().contains("The PriorityLevelConfiguration \"bad-level\" is invalid: "
                + "spec.limited.limitResponse.queuing.handSize: Invalid value: 17: should not be greater than queues (16)"),
                level::toString);

        Result entropy = kubectl.run("apply", "-f", write("bad-entropy.yaml", LEVEL.replace("SHARES", "20")
                .replace("QUEUES", "512").replace("workload-test", "bad-entropy").replace("handSize: 4", "handSize: 8")).toString());
        assertTrue(entropy.stderr().contains("spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required "
                + "entropy bits of deckSize 512 and handSize 8 should not be greater than 60"), entropy::toString);

        Result schema = kubectl.run("apply", "-f", write("bad-schema.yaml", SCHEMA.replace("NAME", "bad-schema")
                .replace("PRECEDENCE", "1").replace("namespace: default\n", "")).toString());
        assertNotEquals(0, schema.exitCode(), schema::toString);
        assertTrue(schema.stderr().contains("The FlowSchema \"bad-schema\" is invalid: "), schema::toString);
        assertTrue(schema.stderr().contains("spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' "
                + "may have matchingPrecedence 1"), schema::toString);
        assertTrue(schema.stderr().contains("spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must "
                + "specify namespace for service account"), schema::toString);

        for (String name : List.of("bad-level", "bad-entropy")) {
            assertNotEquals(0, kubectl.run("get", "prioritylevelconfiguration", name).exitCode(), name + " was stored");
        }
    }

    @Test
    @Order(5)
    void explainReadsTheSchemas() throws Exception {
        String spec = kubectl.ok("explain", "flowschema.spec").stdout();
        assertTrue(spec.contains("matchingPrecedence") && spec.contains("priorityLevelConfiguration")
                && spec.contains("distinguisherMethod"), spec);
        String queuing = kubectl.ok("explain", "prioritylevelconfiguration.spec.limited.limitResponse.queuing").stdout();
        assertTrue(queuing.contains("handSize") && queuing.contains("queueLengthLimit"), queuing);

        assertEquals("flowschema.flowcontrol.apiserver.k8s.io \"service-accounts-test\" deleted",
                kubectl.ok("delete", "flowschema", "service-accounts-test").stdout().trim());
        assertEquals("prioritylevelconfiguration.flowcontrol.apiserver.k8s.io \"workload-test\" deleted",
                kubectl.ok("delete", "prioritylevelconfiguration", "workload-test").stdout().trim());
    }
}
