package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.apps.Fixtures.CTX;
import static io.kubelix.resource.apps.Fixtures.create;
import static io.kubelix.resource.apps.Fixtures.json;
import static io.kubelix.resource.apps.Fixtures.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ReplicaSetStrategyTest {
    private final WorkloadStrategy strategy = WorkloadStrategy.replicaSet();

    private static ObjectNode replicaSet() {
        ObjectNode r = workload("ReplicaSet", "web");
        ((ObjectNode) r.path("spec")).remove(List.of("replicas", "strategy"));
        return r;
    }

    @Test
    void defaultsToOneReplicaWithAZeroStatus() {
        ObjectNode r = replicaSet();

        assertEquals(List.of(), create(strategy, r));
        assertEquals(1, r.path("spec").path("replicas").asInt());
        assertEquals("{\"replicas\":0}", r.path("status").toString());
    }

    @Test
    void selectorRulesWithKubesWording() {
        ObjectNode r = replicaSet();
        ((ObjectNode) r.path("spec")).set("selector", json("{'matchExpressions':[{'key':'app','operator':'In'}]}"));

        assertEquals(List.of("spec.selector.matchExpressions[0].values: Required value: must be specified when "
                + "`operator` is 'In' or 'NotIn'", "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:"
                + "map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{"
                + "Key:\"app\", Operator:\"In\", Values:[]string(nil)}}}: invalid label selector"), create(strategy, r));
    }

    @Test
    void containerNamesMustBeUniqueAndTheSelectorImmutable() {
        ObjectNode r = replicaSet();
        ((ObjectNode) r.path("spec").path("template").path("spec")).set("containers",
                json("{'c':[{'name':'a','image':'x'},{'name':'a','image':'y'}]}").get("c"));
        assertEquals(List.of("spec.template.spec.containers[1].name: Duplicate value: \"a\""), create(strategy, r));

        ObjectNode old = replicaSet();
        create(strategy, old);
        ObjectNode updated = old.deepCopy();
        ((ObjectNode) updated.path("spec")).remove("selector");
        strategy.prepareForUpdate(CTX, updated, old);
        assertEquals(List.of("spec.selector", "spec.template.metadata.labels", "spec.selector"),
                strategy.validateUpdate(CTX, updated, old).stream().map(FieldError::field).toList());
    }
}
