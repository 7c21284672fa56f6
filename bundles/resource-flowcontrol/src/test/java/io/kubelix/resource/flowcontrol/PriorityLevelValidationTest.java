package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.flowcontrol.Fixtures.create;
import static io.kubelix.resource.flowcontrol.Fixtures.json;
import static io.kubelix.resource.flowcontrol.Fixtures.priorityLevel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PriorityLevelValidationTest {
    private final FlowcontrolStrategy strategy = FlowcontrolStrategy.priorityLevel();

    private List<String> create(String name, String spec) {
        return Fixtures.create(strategy, priorityLevel(name, spec));
    }

    private List<String> queuing(int queues, int handSize, int queueLengthLimit) {
        return create("workload", "{'type':'Limited','limited':{'limitResponse':{'type':'Queue','queuing':{'queues':"
                + queues + ",'handSize':" + handSize + ",'queueLengthLimit':" + queueLengthLimit + "}}}}");
    }

    @Test
    void limitedLevelsGetKubesDefaults() {
        ObjectNode pl = priorityLevel("workload", "{'type':'Limited','limited':{'limitResponse':{'type':'Queue','queuing':{}}}}");
        assertEquals(List.of(), Fixtures.create(strategy, pl));
        assertEquals(json("{'type':'Limited','limited':{'nominalConcurrencyShares':30,'lendablePercent':0,'limitResponse':"
                + "{'type':'Queue','queuing':{'handSize':8,'queues':64,'queueLengthLimit':50}}}}"), pl.get("spec"));
        assertEquals(json("{}"), pl.get("status"));

        ObjectNode zero = priorityLevel("idle", "{'type':'Limited','limited':{'nominalConcurrencyShares':0,"
                + "'lendablePercent':50,'limitResponse':{'type':'Reject'}}}");
        assertEquals(List.of(), Fixtures.create(strategy, zero));
        assertEquals(0, zero.path("spec").path("limited").path("nominalConcurrencyShares").asInt(-1));
        assertEquals(50, zero.path("spec").path("limited").path("lendablePercent").asInt());
    }

    @Test
    void theExemptLevelGetsItsDefaultsAndMayChangeOnlyThem() {
        ObjectNode exempt = priorityLevel("exempt", "{'type':'Exempt'}");
        assertEquals(List.of(), Fixtures.create(strategy, exempt));
        ObjectNode withDefaults = priorityLevel("exempt", "{'type':'Exempt','exempt':{}}");
        assertEquals(List.of(), Fixtures.create(strategy, withDefaults));
        assertEquals(json("{'type':'Exempt','exempt':{'nominalConcurrencyShares':0,'lendablePercent':0}}"),
                withDefaults.get("spec"));
        assertEquals(List.of(), create("exempt", "{'type':'Exempt','exempt':{'nominalConcurrencyShares':10,'lendablePercent':10}}"));
        assertEquals(List.of("spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
                        "spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive"),
                create("exempt", "{'type':'Exempt','exempt':{'nominalConcurrencyShares':-1,'lendablePercent':101}}"));

        List<String> repurposed = create("exempt", "{'type':'Limited','exempt':{},'limited':{'nominalConcurrencyShares':42,"
                + "'limitResponse':{'type':'Reject'}}}");
        assertEquals(3, repurposed.size(), repurposed.toString());
        assertEquals("spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'", repurposed.get(0));
        assertEquals("spec.exempt: Forbidden: must be nil if the type is Limited", repurposed.get(1));
        assertTrue(repurposed.get(2).endsWith("spec of 'exempt' except the 'spec.exempt' field must equal the fixed value"));

        List<String> alsoLimited = create("exempt", "{'type':'Exempt','exempt':{},'limited':{'nominalConcurrencyShares':42,"
                + "'limitResponse':{'type':'Reject'}}}");
        assertEquals("spec.limited: Forbidden: must be nil if the type is not Limited", alsoLimited.get(0));
        assertTrue(alsoLimited.get(1).endsWith("spec of 'exempt' except the 'spec.exempt' field must equal the fixed value"));
    }

    @Test
    void theCatchAllLevelKeepsItsFixedSpec() {
        assertEquals(List.of(), create("catch-all", "{'type':'Limited','limited':{'nominalConcurrencyShares':5,"
                + "'limitResponse':{'type':'Reject'}}}"));
        List<String> errs = create("catch-all", "{'type':'Limited','limited':{'nominalConcurrencyShares':42,"
                + "'limitResponse':{'type':'Reject'}}}");
        assertEquals(1, errs.size());
        assertTrue(errs.get(0).startsWith("spec: Invalid value: {\"type\":\"Limited\""), errs.get(0));
        assertTrue(errs.get(0).endsWith(": spec of 'catch-all' must equal the fixed value"), errs.get(0));
        assertEquals(1, create("catch-all", "{'type':'Limited','limited':{'nominalConcurrencyShares':5,"
                + "'borrowingLimitPercent':0,'limitResponse':{'type':'Reject'}}}").size());
    }

    @Test
    void typesAndLimitResponses() {
        assertEquals(List.of("spec.type: Unsupported value: \"Bogus\": supported values: \"Exempt\", \"Limited\""),
                create("workload", "{'type':'Bogus'}"));
        assertEquals(List.of("spec.limited: Required value: must not be empty when type is Limited"),
                create("workload", "{'type':'Limited'}"));
        assertEquals(List.of("spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited"),
                create("workload", "{'type':'Limited','limited':{'limitResponse':{'type':'Reject','queuing':{}}}}"));
        assertEquals(List.of("spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited"),
                create("workload", "{'type':'Limited','limited':{'limitResponse':{'type':'Queue'}}}"));
        assertEquals(List.of("spec.limited.limitResponse.type: Unsupported value: \"Drop\": supported values: \"Queue\", \"Reject\""),
                create("workload", "{'type':'Limited','limited':{'limitResponse':{'type':'Drop'}}}"));
        assertEquals(List.of("spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
                        "spec.limited.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive",
                        "spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer"),
                create("workload", "{'type':'Limited','limited':{'nominalConcurrencyShares':-1,'lendablePercent':-1,"
                        + "'borrowingLimitPercent':-1,'limitResponse':{'type':'Reject'}}}"));
    }

    @Test
    void queuingParametersAndShuffleShardingEntropy() {
        assertEquals(List.of(), queuing(512, 4, 100));
        assertEquals(List.of(), queuing(10_000_000, 2, 100));
        assertEquals(List.of(), queuing(64, 10, 100));
        assertEquals(List.of("spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of "
                + "deckSize 512 and handSize 8 should not be greater than 60"), queuing(512, 8, 100));
        assertEquals(List.of("spec.limited.limitResponse.queuing.handSize: Invalid value: 10: required entropy bits of "
                + "deckSize 128 and handSize 10 should not be greater than 60"), queuing(128, 10, 100));
        assertEquals(List.of("spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than "
                + "queues (7)"), queuing(7, 8, 100));
        assertEquals(List.of("spec.limited.limitResponse.queuing.queues: Invalid value: 2147483647: must not be greater "
                        + "than 10000000",
                "spec.limited.limitResponse.queuing.handSize: Invalid value: 3: required entropy bits of deckSize "
                        + "2147483647 and handSize 3 should not be greater than 60"), queuing(Integer.MAX_VALUE, 3, 100));
        assertEquals(List.of("spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive",
                        "spec.limited.limitResponse.queuing.queues: Invalid value: -1: must be positive",
                        "spec.limited.limitResponse.queuing.handSize: Invalid value: -1: must be positive"),
                queuing(-1, -1, -1));
    }
}
