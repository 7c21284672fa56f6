package io.kubelix.runtime.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The bootstrap objects, field by field, against kube 1.32's default.go. */
class BootstrapConfigurationTest {

    private static String names(List<ObjectNode> objects) {
        return objects.stream().map(o -> o.path("metadata").path("name").asText()).collect(Collectors.joining(","));
    }

    /** name:type:shares:lendable:borrowingLimit:queues/handSize/queueLengthLimit (or Reject). */
    private static String level(JsonNode pl) {
        JsonNode spec = pl.path("spec");
        JsonNode p = spec.path(spec.path("type").asText().equals("Exempt") ? "exempt" : "limited");
        JsonNode response = p.path("limitResponse");
        JsonNode q = response.path("queuing");
        return pl.path("metadata").path("name").asText() + ":" + spec.path("type").asText() + ":"
                + p.path("nominalConcurrencyShares").asText() + ":" + p.path("lendablePercent").asText() + ":"
                + p.path("borrowingLimitPercent").asText("-") + ":"
                + (response.path("type").asText().equals("Queue")
                ? q.path("queues").asText() + "/" + q.path("handSize").asText() + "/" + q.path("queueLengthLimit").asText()
                : response.path("type").asText("-"));
    }

    /** name:level:precedence:distinguisher. */
    private static String schema(JsonNode fs) {
        JsonNode spec = fs.path("spec");
        return fs.path("metadata").path("name").asText() + ":" + spec.path("priorityLevelConfiguration").path("name").asText()
                + ":" + spec.path("matchingPrecedence").asText() + ":" + spec.path("distinguisherMethod").path("type").asText("-");
    }

    @Test
    void levelsAreKubes() {
        assertEquals(List.of("exempt:Exempt:0:0:-:-", "catch-all:Limited:5:0:-:Reject"),
                BootstrapConfiguration.mandatoryPriorityLevels().stream().map(BootstrapConfigurationTest::level).toList());
        assertEquals(List.of(
                        "system:Limited:30:33:-:64/6/50",
                        "node-high:Limited:40:25:-:64/6/50",
                        "leader-election:Limited:10:0:-:16/4/50",
                        "workload-high:Limited:40:50:-:128/6/50",
                        "workload-low:Limited:100:90:-:128/6/50",
                        "global-default:Limited:20:50:-:128/6/50"),
                BootstrapConfiguration.suggestedPriorityLevels().stream().map(BootstrapConfigurationTest::level).toList());
    }

    @Test
    void schemasAreKubes() {
        assertEquals("exempt,catch-all", names(BootstrapConfiguration.mandatoryFlowSchemas()));
        assertEquals(List.of("exempt:exempt:1:-", "catch-all:catch-all:10000:ByUser"),
                BootstrapConfiguration.mandatoryFlowSchemas().stream().map(BootstrapConfigurationTest::schema).toList());
        assertEquals(List.of(
                        "system-nodes:system:500:ByUser",
                        "system-node-high:node-high:400:ByUser",
                        "probes:exempt:2:-",
                        "system-leader-election:leader-election:100:ByUser",
                        "workload-leader-election:leader-election:200:ByUser",
                        "endpoint-controller:workload-high:150:ByUser",
                        "kube-controller-manager:workload-high:800:ByNamespace",
                        "kube-scheduler:workload-high:800:ByNamespace",
                        "kube-system-service-accounts:workload-high:900:ByNamespace",
                        "service-accounts:workload-low:9000:ByUser",
                        "global-default:global-default:9900:ByUser"),
                BootstrapConfiguration.suggestedFlowSchemas().stream().map(BootstrapConfigurationTest::schema).toList());
    }

    @Test
    void rulesAreKubes() {
        JsonNode workloadLeaderElection = rule("workload-leader-election");
        assertEquals("[{\"verbs\":[\"get\",\"create\",\"update\"],\"apiGroups\":[\"\"],\"resources\":[\"endpoints\",\"configmaps\"],"
                        + "\"namespaces\":[\"*\"]},{\"verbs\":[\"get\",\"create\",\"update\"],\"apiGroups\":[\"coordination.k8s.io\"],"
                        + "\"resources\":[\"leases\"],\"namespaces\":[\"*\"]}]",
                workloadLeaderElection.path("resourceRules").toString());
        assertEquals("[{\"kind\":\"ServiceAccount\",\"serviceAccount\":{\"name\":\"*\",\"namespace\":\"kube-system\"}}]",
                workloadLeaderElection.path("subjects").toString());
        JsonNode systemLeaderElection = rule("system-leader-election");
        assertEquals("[{\"verbs\":[\"get\",\"create\",\"update\"],\"apiGroups\":[\"coordination.k8s.io\"],"
                + "\"resources\":[\"leases\"],\"namespaces\":[\"*\"]}]", systemLeaderElection.path("resourceRules").toString());
        assertEquals(3, systemLeaderElection.path("subjects").size());
        JsonNode probes = rule("probes");
        assertFalse(probes.has("resourceRules"));
        assertEquals("[{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/healthz\",\"/readyz\",\"/livez\"]}]",
                probes.path("nonResourceRules").toString());
        assertEquals("[{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"],\"clusterScope\":true,\"namespaces\":[\"*\"]}]",
                rule("exempt").path("resourceRules").toString());
        for (ObjectNode o : BootstrapConfiguration.flowSchemas()) {
            assertEquals("true", o.path("metadata").path("annotations").path(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION)
                    .asText(), "annotated as kube annotates every bootstrap object");
        }
    }

    private static JsonNode rule(String schema) {
        return BootstrapConfiguration.flowSchemas().stream()
                .filter(fs -> fs.path("metadata").path("name").asText().equals(schema)).findFirst().orElseThrow()
                .path("spec").path("rules").get(0);
    }
}
