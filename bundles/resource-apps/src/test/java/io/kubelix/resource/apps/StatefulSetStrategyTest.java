package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.apps.Fixtures.CTX;
import static io.kubelix.resource.apps.Fixtures.create;
import static io.kubelix.resource.apps.Fixtures.json;
import static io.kubelix.resource.apps.Fixtures.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;

class StatefulSetStrategyTest {
    private final WorkloadStrategy strategy = WorkloadStrategy.statefulSet();

    private static ObjectNode statefulSet() {
        ObjectNode s = workload("StatefulSet", "db");
        ((ObjectNode) s.path("spec")).remove("strategy");
        ((ObjectNode) s.path("spec")).remove("replicas");
        return s;
    }

    @Test
    void defaultsAsKube132() {
        ObjectNode s = statefulSet();

        assertEquals(List.of(), create(strategy, s));

        JsonNode spec = s.path("spec");
        assertEquals(1, spec.path("replicas").asInt());
        assertEquals("OrderedReady", spec.path("podManagementPolicy").asText());
        assertEquals("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":0}}", spec.path("updateStrategy").toString());
        assertEquals("{\"whenDeleted\":\"Retain\",\"whenScaled\":\"Retain\"}",
                spec.path("persistentVolumeClaimRetentionPolicy").toString());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        assertEquals("Always", spec.path("template").path("spec").path("restartPolicy").asText());
        assertEquals("{\"replicas\":0,\"availableReplicas\":0}", s.path("status").toString());
    }

    @Test
    void policiesAndStrategyAreValidated() {
        ObjectNode s = statefulSet();
        ObjectNode spec = (ObjectNode) s.path("spec");
        spec.put("podManagementPolicy", "Random");
        spec.set("updateStrategy", json("{'type':'OnDelete','rollingUpdate':{'partition':1}}"));
        spec.set("persistentVolumeClaimRetentionPolicy", json("{'whenDeleted':'Keep','whenScaled':'Delete'}"));

        assertEquals(List.of("spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
                "spec.updateStrategy.rollingUpdate: Invalid value: &apps.RollingUpdateStatefulSetStrategy{Partition:1, "
                        + "MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
                "spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: \"Keep\": supported values: "
                        + "\"Retain\", \"Delete\""), create(strategy, s));
    }

    @Test
    void aSelectorMismatchAndAnEmptySelector() {
        ObjectNode s = statefulSet();
        ((ObjectNode) s.path("spec")).set("selector", json("{}"));
        assertEquals(List.of("spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), "
                + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset"),
                create(strategy, s));

        ObjectNode t = statefulSet();
        ((ObjectNode) t.path("spec").path("template").path("metadata")).remove("labels");
        assertEquals(List.of("spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not "
                + "match template `labels`"), create(strategy, t));
    }

    @Test
    void anUpdateMayChangeOnlyReplicasTemplateStrategyAndRetention() {
        ObjectNode old = statefulSet();
        create(strategy, old);

        ObjectNode scaled = old.deepCopy();
        ((ObjectNode) scaled.path("spec")).put("replicas", 3);
        ((ObjectNode) scaled.path("spec").path("template").path("spec").path("containers").get(0)).put("image", "nginx:1.27");
        strategy.prepareForUpdate(CTX, scaled, old);
        assertEquals(List.of(), strategy.validateUpdate(CTX, scaled, old));

        ObjectNode renamed = old.deepCopy();
        ((ObjectNode) renamed.path("spec")).put("serviceName", "other");
        strategy.prepareForUpdate(CTX, renamed, old);
        assertEquals(List.of("spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
                + "'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"),
                strategy.validateUpdate(CTX, renamed, old).stream().map(FieldError::message).toList());
    }
}
